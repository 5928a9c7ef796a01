import { isRecord } from '../shared/input-text.js';
import type { ItemScope } from '../shared/item-scope.js';
import { describeValue, textValue } from '../shared/values.js';

/** One group of targets with their labels, as `static_configs` and target files write them. */
export interface TargetGroup {
  targets: string[];
  labels: [string, string][];
  /** Where the group came from, for warnings. */
  field: string;
}

/** Reads a `static_configs` entry or a target file's entry; undefined (with a warning) when it is not one. */
export function readTargetGroup(raw: unknown, field: string, scope: ItemScope): TargetGroup | undefined {
  if (!isRecord(raw) || !Array.isArray(raw.targets)) {
    scope.warn('UNSUPPORTED_SETTING', `${field} is ${describeValue(raw)}, not a mapping with a \`targets\` list; ignored`, field);
    return undefined;
  }
  const targets = raw.targets.flatMap((target) => {
    const text = textValue(target)?.trim();
    return text ? [text] : [];
  });
  const labels = isRecord(raw.labels)
    ? Object.entries(raw.labels).flatMap(([key, value]) => {
        const text = textValue(value);
        return text === undefined ? [] : [[key, text] as [string, string]];
      })
    : [];
  return { targets, labels, field };
}

// A `file_sd_configs` pattern (`targets/*.yml`) matched against a file's name; only the last
// path element is compared, since the bundle names files by their base name.
function globPattern(glob: string): RegExp {
  const base = glob.split('/').pop() ?? glob;
  const source = base
    .replace(/[.+^${}()|\\]/g, '\\$&')
    .replace(/\*/g, '[^/]*')
    .replace(/\?/g, '[^/]');
  return new RegExp(`^${source}$`);
}

/**
 * The target groups of one `file_sd_configs` entry, from the files given with the import whose
 * names match its patterns. A pattern no given file matches is an `UNSUPPORTED_SETTING`
 * warning: its targets are not imported.
 */
export function fileTargetGroups(raw: unknown, field: string, files: ReadonlyMap<string, unknown>, scope: ItemScope): TargetGroup[] {
  const patterns = isRecord(raw) && Array.isArray(raw.files) ? raw.files.flatMap((file) => textValue(file) ?? []) : [];
  const groups: TargetGroup[] = [];
  for (const pattern of patterns) {
    const matcher = globPattern(pattern);
    const matching = [...files].filter(([name]) => matcher.test(name.split('/').pop() ?? name));
    if (matching.length === 0) {
      scope.warn(
        'UNSUPPORTED_SETTING',
        `the targets in ${pattern} were not imported: give that file with the import too (--file may be repeated)`,
        `${field}.files`,
      );
      continue;
    }
    for (const [name, content] of matching) {
      if (!Array.isArray(content)) {
        scope.warn('UNSUPPORTED_SETTING', `${name} is not a list of target groups; ignored`, `${field}.files`);
        continue;
      }
      content.forEach((group, index) => {
        const read = readTargetGroup(group, `${name}[${index}]`, scope);
        if (read) groups.push(read);
      });
    }
  }
  return groups;
}
