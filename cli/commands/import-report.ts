import type { ImportResponse, ImportWarning } from '../../importers/index.js';
import type { Output } from '../output.js';
import { changeLine, showValue } from './checks-plan.js';

/** Rows shown per warning code and of the check list; the rest is counted (and all of it is in --json). */
const SHOWN = 20;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The warnings grouped by code, in the order the codes first appear. */
export function warningsByCode(warnings: readonly ImportWarning[]): Map<string, ImportWarning[]> {
  const groups = new Map<string, ImportWarning[]>();
  for (const warning of warnings) {
    const group = groups.get(warning.code);
    if (group) group.push(warning);
    else groups.set(warning.code, [warning]);
  }
  return groups;
}

/** The checks whose fields were changed both here and in the source, by what the import does with them. */
function fieldConflictCounts(response: ImportResponse): string[] {
  const kept = response.checks.filter((check) => check.conflicts?.some((conflict) => conflict.taken === 'here')).length;
  const taken = response.checks.filter((check) => check.conflicts?.some((conflict) => conflict.taken === 'source')).length;
  return [
    ...(kept ? [`${plural(kept, 'check')} with changes here kept over the source's (--overwrite takes the source's)`] : []),
    ...(taken ? [`${plural(taken, 'check')} with changes here overwritten by the source's`] : []),
  ];
}

/**
 * Each existing check's field changes and conflicts, as `svc checks apply` prints its plan:
 * `~ slug` and `intervalSeconds: 60 → 300`; a conflict as `! field: here X, source Y` and which is kept.
 */
function printFieldChanges(out: Output, response: ImportResponse): void {
  const detailed = response.checks.filter((check) => check.changes || check.conflicts);
  if (detailed.length === 0) return;
  const { color } = out;
  out.line();
  out.line(color.bold('Changes to existing checks'));
  for (const check of detailed.slice(0, SHOWN)) {
    out.line(color.yellow(`~ ${check.slug}`));
    for (const change of check.changes ?? []) out.line(`    ${changeLine(change.field, change.from, change.to)}`);
    for (const conflict of check.conflicts ?? []) {
      const outcome = conflict.taken === 'here' ? "kept here; --overwrite takes the source's" : "the source's taken";
      out.line(
        color.red(`  ! ${conflict.field}: changed here and in the source: here ${showValue(conflict.here)}, source ${showValue(conflict.source)} (${outcome})`),
      );
    }
  }
  if (detailed.length > SHOWN) out.line(color.dim(`  ... and ${detailed.length - SHOWN} more (--json lists every change)`));
}

/** The counts, one line. */
export function countsLine(response: ImportResponse): string {
  const verb = response.dryRun ? 'would ' : '';
  return [
    `${verb}create ${response.created}`,
    `${verb}update ${response.updated}`,
    `${response.unchanged} unchanged`,
    ...(response.conflicts ? [`${response.conflicts} in conflict (owned elsewhere; --take-over changes them)`] : []),
    ...fieldConflictCounts(response),
    `${response.skipped} skipped`,
  ].join(', ');
}

/**
 * Prints a response for people: the counts, the checks that change (and the skipped items),
 * and a table of warnings per code. `title` says what it is (a preview, an apply).
 */
export function printImportReport(out: Output, response: ImportResponse, title: string): void {
  const { color } = out;
  out.line(color.bold(title));
  out.line(`  ${countsLine(response)}`);

  const changes = response.checks.filter((check) => check.action !== 'unchanged' || check.conflicts);
  if (changes.length > 0) {
    out.line();
    out.table(
      changes.slice(0, SHOWN).map((check) => ({ ...check, slug: check.slug ?? '-', type: check.type ?? check.reason ?? '' })),
      [
        { key: 'action', title: 'ACTION' },
        { key: 'slug', title: 'SLUG' },
        { key: 'type', title: 'TYPE' },
        { key: 'name', title: 'NAME' },
      ],
    );
    if (changes.length > SHOWN) out.line(color.dim(`  ... and ${changes.length - SHOWN} more (--json lists every check)`));
  }
  printFieldChanges(out, response);

  const groups = warningsByCode(response.warnings);
  if (groups.size === 0) return;
  out.line();
  out.line(color.bold(`Warnings: ${plural(response.warnings.length, 'warning')}`));
  out.table(
    [...groups].map(([code, list]) => ({ code, count: list.length })),
    [
      { key: 'code', title: 'CODE' },
      { key: 'count', title: 'COUNT' },
    ],
  );
  for (const [code, list] of groups) {
    out.line();
    out.line(color.yellow(`${code} (${list.length})`));
    out.table(
      list.slice(0, SHOWN).map((warning) => ({ item: warning.item, field: warning.field ?? '', message: warning.message })),
      [
        { key: 'item', title: 'ITEM' },
        { key: 'field', title: 'FIELD' },
        { key: 'message', title: 'MESSAGE' },
      ],
    );
    if (list.length > SHOWN) out.line(color.dim(`  ... and ${list.length - SHOWN} more ${code} (--json lists every warning)`));
  }
}
