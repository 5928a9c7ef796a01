// Status codes as the catalog writes them: single codes and "low-high" ranges from 100 to 599.
/** The status codes the catalog accepts: 100 to 599. */
export const STATUS_CODE_BOUNDS = { min: 100, max: 599 } as const;

/**
 * The codes from 100 to 599 for which `accepts` holds, written as the catalog's
 * `expectedStatusCodes`: single codes as numbers, runs of codes as "low-high" ranges.
 * Empty when no code is accepted.
 */
export function statusCodeList(accepts: (code: number) => boolean): (number | string)[] {
  const list: (number | string)[] = [];
  let start: number | undefined;
  for (let code = STATUS_CODE_BOUNDS.min; code <= STATUS_CODE_BOUNDS.max + 1; code++) {
    const accepted = code <= STATUS_CODE_BOUNDS.max && accepts(code);
    if (accepted && start === undefined) start = code;
    if (!accepted && start !== undefined) {
      const end = code - 1;
      list.push(start === end ? start : `${start}-${end}`);
      start = undefined;
    }
  }
  return list;
}

/**
 * A predicate for the codes a list of codes and ranges accepts ("200-299", 404, "301");
 * entries that are neither are ignored. Useful to combine sources' lists with other rules.
 */
export function statusCodeMatcher(entries: readonly (number | string)[]): (code: number) => boolean {
  const ranges: [number, number][] = [];
  for (const entry of entries) {
    const match = /^\s*(\d{3})\s*(?:-\s*(\d{3}))?\s*$/.exec(String(entry));
    if (match) ranges.push([Number(match[1]), Number(match[2] ?? match[1])]);
  }
  return (code) => ranges.some(([low, high]) => code >= low && code <= high);
}
