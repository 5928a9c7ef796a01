/**
 * How deep a JSON document may nest (objects and lists). Far beyond any check, channel or
 * request the API takes, and shallow enough that every recursive walk over a document stays far
 * from the stack's limit.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether `value` nests objects or lists deeper than `max` levels (a scalar is level 0, `{}` level
 * 1). Walks with its own stack, so a document nested a million deep is measured without
 * recursion, and stops at the first branch too deep.
 */
export function nestsDeeperThan(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (pending.length > 0) {
    const { value: current, depth } = pending.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (typeof child === 'object' && child !== null) pending.push({ value: child, depth: depth + 1 });
    }
  }
  return false;
}

/** The validation message for a document nested too deeply. */
export const tooDeepMessage = (max: number = MAX_JSON_DEPTH) => `is nested deeper than ${max} levels`;
