import type { z } from 'zod';

/** One validation problem: a dotted field path (`config.expectedStatusCodes.0`) and a sentence. */
export interface ValidationIssue {
  readonly path: string;
  readonly message: string;
}

type PathSegment = string | number;

/** Joins path segments the way API clients address fields: `thresholds.timeoutMs`, `labels.team`. */
export function joinPath(segments: readonly PropertyKey[]): string {
  return segments.map(String).join('.');
}

const SECRET_KEY = /pass(word|wd)?$|secret|token|api[-_]?key|private[-_]?key|credential/i;

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return Number.isInteger(value) ? 'a number' : `${value}`;
  return typeof value;
}

const EXPECTED_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  record: 'an object',
};

function bound(issue: { origin: string; inclusive?: boolean }, value: number | bigint, low: boolean): string {
  const n = Number(value);
  switch (issue.origin) {
    case 'string':
      if (low && n === 1) return 'must not be empty';
      return `must be ${low ? 'at least' : 'at most'} ${n} characters long`;
    case 'array':
      if (low && n === 1) return 'must list at least one item';
      return `must have ${low ? 'at least' : 'at most'} ${n} items`;
    default:
      if (issue.inclusive === false) return `must be ${low ? 'greater' : 'less'} than ${n}`;
      return `must be ${low ? 'at least' : 'at most'} ${n}`;
  }
}

// Per-parse messages: plain sentences about the value, since the path is reported beside them.
// Messages written on a schema (pattern explanations, cross-field rules) take precedence.
const errorMap: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'required';
      return `expected ${EXPECTED_NAMES[issue.expected] ?? issue.expected}, got ${describeValue(issue.input)}`;
    case 'too_small':
      return bound(issue, issue.minimum, true);
    case 'too_big':
      return bound(issue, issue.maximum, false);
    case 'invalid_value':
      return issue.values.length === 1
        ? `must be ${JSON.stringify(issue.values[0])}`
        : `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return undefined;
  }
};

/** Unwraps optional, default, pipe and similar wrappers down to the schema that holds the value. */
function innermost(schema: z.core.$ZodType): z.core.$ZodType {
  let current = schema;
  for (;;) {
    const def = current._zod.def as { type: string; innerType?: z.core.$ZodType; in?: z.core.$ZodType };
    const next = def.innerType ?? (def.type === 'pipe' ? def.in : undefined);
    if (!next) return current;
    current = next;
  }
}

/** The field names an object schema at `path` accepts, for "did you mean" hints. */
function knownKeysAt(schema: z.core.$ZodType, path: readonly PathSegment[]): string[] {
  let current: z.core.$ZodType | undefined = innermost(schema);
  for (const segment of path) {
    const def = current._zod.def as {
      type: string;
      shape?: Record<string, z.core.$ZodType>;
      element?: z.core.$ZodType;
      valueType?: z.core.$ZodType;
    };
    const next: z.core.$ZodType | undefined = def.type === 'object' ? def.shape?.[String(segment)] : (def.element ?? def.valueType);
    if (!next) return [];
    current = innermost(next);
  }
  const def = current._zod.def as { type: string; shape?: Record<string, unknown> };
  return def.type === 'object' && def.shape ? Object.keys(def.shape) : [];
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return previous[b.length];
}

/** The known field that `key` most likely meant: same letters ignoring case and separators, or a close typo. */
export function suggestKey(key: string, known: readonly string[]): string | undefined {
  const fold = (s: string) => s.toLowerCase().replace(/[-_ ]/g, '');
  const exact = known.find((k) => fold(k) === fold(key));
  if (exact) return exact;
  let best: { key: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(fold(key), fold(candidate));
    if (distance <= 2 && (!best || distance < best.distance)) best = { key: candidate, distance };
  }
  return best?.key;
}

/** The issue for a field that the schema does not know, with a hint when it looks like a typo or a secret. */
export function unknownKeyIssue(path: readonly PathSegment[], key: string, known: readonly string[]): ValidationIssue {
  const suggestion = suggestKey(key, known);
  let message = 'unknown field';
  if (suggestion) message += `; did you mean "${suggestion}"?`;
  else if (SECRET_KEY.test(key)) message += ': secrets are never stored in a check';
  return { path: joinPath([...path, key]), message };
}

function toIssues(schema: z.core.$ZodType, issue: z.core.$ZodIssue, prefix: readonly PathSegment[]): ValidationIssue[] {
  const path = [...prefix, ...(issue.path as PathSegment[])];
  if (issue.code === 'unrecognized_keys') {
    const known = knownKeysAt(schema, issue.path as PathSegment[]);
    return issue.keys.map((key) => unknownKeyIssue(path, key, known));
  }
  if (issue.code === 'invalid_key') {
    // The record's own message ("Invalid key in record") hides why; report the key's problem.
    return issue.issues.map((inner) => ({ path: joinPath(path), message: inner.message }));
  }
  return [{ path: joinPath(path), message: issue.message }];
}

/** The outcome of parsing one value against a schema, with issues in the catalog's shape. */
export type ParseOutcome<T> = { ok: true; value: T } | { ok: false; issues: ValidationIssue[] };

/** Parses `value` and reports every problem, with paths starting at `prefix`. */
export function parseWithIssues<S extends z.ZodType>(schema: S, value: unknown, prefix: readonly PathSegment[] = []): ParseOutcome<z.output<S>> {
  const result = schema.safeParse(value, { error: errorMap });
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, issues: result.error.issues.flatMap((issue) => toIssues(schema, issue, prefix)) };
}
