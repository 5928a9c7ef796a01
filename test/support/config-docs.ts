import { SETTINGS, type Setting } from '../../daemon/config/settings.js';

/** The settings table of docs/configuration.md, rendered from the settings declarations. */
export function renderSettingsTable(): string {
  const rows = ['| Variable | File key | Type | Default | Meaning |', '|---|---|---|---|---|'];
  for (const s of Object.values(SETTINGS) as Setting[]) {
    const shownDefault =
      s.defaultDoc ?? (s.default === undefined ? 'unset' : `\`${typeof s.default === 'object' ? JSON.stringify(s.default) : String(s.default)}\``);
    const names = [s.env, ...(s.aliases ?? []).map((a) => a.env)].map((n) => `\`${n}\``).join('<br>');
    const files =
      [s.file, ...(s.aliases ?? []).map((a) => a.file)]
        .filter(Boolean)
        .map((n) => `\`${n}\``)
        .join('<br>') || '—';
    rows.push(`| ${names} | ${files} | ${s.parser.describe} | ${shownDefault} | ${s.doc} |`);
  }
  return rows.join('\n');
}

export const SETTINGS_START = '<!-- settings:start (generated from daemon/config/settings.ts) -->';
export const SETTINGS_END = '<!-- settings:end -->';
