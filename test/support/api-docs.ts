import { ROUTES } from '../../daemon/routes/index.js';

const who = (permission: string) =>
  permission === 'public' ? 'anyone' : permission === 'authenticated' ? 'signed in' : permission === 'superAdmin' ? 'super admin' : `\`${permission}\``;

/** The route table of docs/api.md, rendered from the daemon's route declarations. */
export function renderRouteTable(): string {
  const rows = ['| Method | Path | Who | What |', '|---|---|---|---|'];
  for (const route of ROUTES) {
    const path = `/api/v1${route.path}`.replace(/:(\w+)/g, '{$1}');
    rows.push(`| ${route.method} | \`${path}\` | ${who(route.permission)} | ${route.summary.replace(/\|/g, '\\|')} |`);
  }
  return rows.join('\n');
}

export const ROUTES_START = '<!-- routes:start (generated from daemon/routes/) -->';
export const ROUTES_END = '<!-- routes:end -->';
