import { definitionOf, MANAGED_LABEL, type CheckDefinition } from './checks-file.js';

/** One changed field of a check, by its dotted path. */
export interface FieldChange {
  path: string;
  from?: unknown;
  to?: unknown;
}

/** What `svc checks apply` will do, check by check. */
export interface ApplyPlan {
  create: CheckDefinition[];
  update: { slug: string; changes: FieldChange[]; patch: Record<string, unknown>; takeOver: boolean }[];
  delete: string[];
  unchanged: string[];
  /** Managed checks the file no longer lists, kept because --prune was not given. */
  kept: string[];
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** JSON with sorted keys, so equal values compare equal whatever their key order. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, inner: unknown) =>
    isRecord(inner) ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : inner,
  );

/** Every leaf that differs between two values, objects walked key by key (arrays compared whole). */
export function fieldChanges(from: unknown, to: unknown, path = ''): FieldChange[] {
  if (isRecord(from) && isRecord(to)) {
    const keys = [...new Set([...Object.keys(from), ...Object.keys(to)])].sort();
    return keys.flatMap((key) => fieldChanges(from[key], to[key], path ? `${path}.${key}` : key));
  }
  if (canonical(from) === canonical(to)) return [];
  return [{ path, ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) }];
}

/** How a value shows in a diff: JSON, or (none) for an absent field. */
export const showValue = (value: unknown): string => (value === undefined ? '(none)' : JSON.stringify(value));

/** One changed field as `svc checks apply` and `svc import` print it: `intervalSeconds: 60 → 300`. */
export const changeLine = (path: string, from: unknown, to: unknown): string => `${path}: ${showValue(from)} → ${showValue(to)}`;

/** The JSON Merge Patch (RFC 7396) that turns `from` into `to`: null removes a field. */
export function mergePatch(from: Record<string, unknown>, to: Record<string, unknown>): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const key of Object.keys(from)) if (!(key in to)) patch[key] = null;
  for (const [key, value] of Object.entries(to)) {
    const before = from[key];
    if (isRecord(before) && isRecord(value)) {
      const inner = mergePatch(before, value);
      if (Object.keys(inner).length > 0) patch[key] = inner;
    } else if (canonical(before) !== canonical(value)) patch[key] = value;
  }
  return patch;
}

/** Whether `svc checks apply` manages this check. */
export const isManaged = (check: { labels?: Record<string, string> }): boolean => check.labels?.[MANAGED_LABEL.key] === MANAGED_LABEL.value;

/**
 * Compares the checks a file wants (validated, with the managed label) with the checks there
 * are: which to create, which to change and how, which to delete (only managed ones, with
 * `prune`), which are already as wanted.
 */
export function planApply(desired: CheckDefinition[], existing: Record<string, unknown>[], prune: boolean): ApplyPlan {
  const bySlug = new Map(existing.map((check) => [check.slug as string, check]));
  const plan: ApplyPlan = { create: [], update: [], delete: [], unchanged: [], kept: [] };
  for (const want of desired) {
    const have = bySlug.get(want.slug);
    if (!have) {
      plan.create.push(want);
      continue;
    }
    const current = definitionOf(have);
    const changes = fieldChanges(current, want);
    if (changes.length === 0) plan.unchanged.push(want.slug);
    else plan.update.push({ slug: want.slug, changes, patch: mergePatch(current, want), takeOver: !isManaged(current as { labels?: Record<string, string> }) });
  }
  const wanted = new Set(desired.map((check) => check.slug));
  for (const check of existing) {
    if (wanted.has(check.slug as string) || !isManaged(check as { labels?: Record<string, string> })) continue;
    (prune ? plan.delete : plan.kept).push(check.slug as string);
  }
  return plan;
}

/** Whether the plan changes anything. */
export const planChangesSomething = (plan: ApplyPlan): boolean => plan.create.length + plan.update.length + plan.delete.length > 0;
