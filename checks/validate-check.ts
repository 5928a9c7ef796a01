import type { CheckDefinition } from './check.js';
import { nestsDeeperThan, tooDeepMessage } from './json-depth.js';
import { commonFieldSchemas, type CommonFields } from './check-fields.js';
import { misplacedReferences, MISPLACED_REFERENCE } from './credential-fields.js';
import { containsReference } from './secret-references.js';
import { parseWithIssues, unknownKeyIssue, type ValidationIssue } from './issues.js';
import { NOT_PLAIN, plainFieldReadings } from './plain-fields.js';
import { checkTypeNames, getCheckType } from './registry.js';
import { slugify } from './slug.js';
import type { TargetRule } from './targets.js';
import type { ValidationMemo } from './validation-memo.js';

/** The outcome of validating a check: the normalised check, or every problem found. */
export type CheckValidation = { ok: true; check: CheckDefinition } | { ok: false; issues: ValidationIssue[] };

/** Whether `value` is a JSON object (not null, not a list). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The common fields whose answers a memo keeps: objects that many checks of an import share. */
const REMEMBERED_FIELDS = new Set(['thresholds']);

const COMMON_FIELDS = Object.keys(commonFieldSchemas) as (keyof CommonFields)[];
const KNOWN_FIELDS = new Set<string>(COMMON_FIELDS);

// Each field is parsed on its own so that every problem is reported; a key is present in the
// result exactly when its field is valid, which tells later rules what they can rely on. A
// plainly valid value is read without its schema (see plain-fields.ts).
function parseCommonFields(input: Record<string, unknown>, issues: ValidationIssue[], memo: ValidationMemo | undefined): Partial<CommonFields> {
  const fields: Record<string, unknown> = {};
  for (const key of COMMON_FIELDS) {
    const plain = key in plainFieldReadings ? plainFieldReadings[key as keyof typeof plainFieldReadings](input[key]) : NOT_PLAIN;
    if (plain !== NOT_PLAIN) {
      fields[key] = plain;
      continue;
    }
    const parse = () => parseWithIssues(commonFieldSchemas[key], input[key], [key]);
    const outcome = memo && REMEMBERED_FIELDS.has(key) ? memo.answer(key, input[key], parse) : parse();
    if (outcome.ok) fields[key] = outcome.value;
    else issues.push(...outcome.issues);
  }
  for (const key of Object.keys(input)) {
    if (!KNOWN_FIELDS.has(key)) issues.push(unknownKeyIssue([], key, COMMON_FIELDS));
  }
  return fields as Partial<CommonFields>;
}

function targetProblem(rule: TargetRule, target: string | undefined): string | undefined {
  if (target !== undefined) return rule.problem(target);
  return rule.kind === 'none' ? undefined : `required: ${rule.description}`;
}

// zod drops a "__proto__" key from maps (labels, headers) without a word, because a plain
// object cannot hold it as data; report it wherever it appears rather than lose it silently.
function reservedKeyIssues(value: unknown, path: string[] = []): ValidationIssue[] {
  // Nearly every check has none: find that out without building paths.
  if (path.length === 0 && !hasReservedKey(value)) return [];
  if (Array.isArray(value)) return value.flatMap((item, i) => reservedKeyIssues(item, [...path, String(i)]));
  if (!isPlainObject(value)) return [];
  return Object.keys(value).flatMap((key) =>
    key === '__proto__' ? [{ path: [...path, key].join('.'), message: 'reserved name' }] : reservedKeyIssues(value[key], [...path, key]),
  );
}

function hasReservedKey(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (hasReservedKey(item)) return true;
    return false;
  }
  for (const key in value) {
    if (key === '__proto__' || hasReservedKey((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

function crossFieldIssues(fields: Partial<CommonFields>): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const { thresholds, intervalSeconds } = fields;
  if (!thresholds) return issues;
  // A probe still running when the next one is due would overlap it.
  if (intervalSeconds !== undefined && thresholds.timeoutMs > intervalSeconds * 1000) {
    issues.push({
      path: 'thresholds.timeoutMs',
      message: `must not exceed the interval (${intervalSeconds * 1000} ms)`,
    });
  }
  if (thresholds.degradedResponseMs !== undefined && thresholds.degradedResponseMs >= thresholds.timeoutMs) {
    issues.push({
      path: 'thresholds.degradedResponseMs',
      message: `must be less than timeoutMs (${thresholds.timeoutMs})`,
    });
  }
  return issues;
}

/**
 * Validates a candidate check and normalises it: defaults filled (enabled, interval,
 * thresholds, labels, the type's config), the slug derived from the name when absent, the
 * target of a type without one stored as "". On failure, lists every problem with its path
 * (`name`, `thresholds.timeoutMs`, `config.expectedStatusCodes.0`, ...). A `memo` keeps the answers
 * for configs, thresholds and labels across the checks it is given with (see validation-memo.ts).
 */
export function validateCheck(input: unknown, memo?: ValidationMemo): CheckValidation {
  if (!isPlainObject(input)) return { ok: false, issues: [{ path: '', message: 'expected a check object' }] };
  // Every walk below recurses; a document this deep is no check anyway.
  if (nestsDeeperThan(input)) return { ok: false, issues: [{ path: '', message: tooDeepMessage() }] };
  const issues: ValidationIssue[] = [];
  const fields = parseCommonFields(input, issues, memo);

  const checkType = fields.type === undefined ? undefined : getCheckType(fields.type);
  if (fields.type !== undefined && !checkType) {
    issues.push({
      path: 'type',
      message: `unknown check type "${fields.type}"; known types: ${checkTypeNames.join(', ')}`,
    });
  }

  let config: unknown;
  if (checkType) {
    if ('target' in fields) {
      const problem = targetProblem(checkType.target, fields.target);
      if (problem) issues.push({ path: 'target', message: problem });
    }
    const configInput = input.config === undefined ? {} : input.config;
    // Secret references only where the catalog marks a credential (checks/credential-fields.ts).
    const validate = () => ({
      outcome: parseWithIssues(checkType.config, configInput, ['config']),
      misplaced: misplacedReferences(checkType.config, configInput, ['config']),
    });
    const { outcome, misplaced } = memo ? memo.answer(`config ${fields.type}`, configInput, validate) : validate();
    if (outcome.ok) config = outcome.value;
    else issues.push(...outcome.issues);
    const reported = new Set(issues.map((issue) => issue.path));
    issues.push(...misplaced.filter((issue) => !reported.has(issue.path)));
  }
  if (typeof fields.target === 'string' && containsReference(fields.target) && !issues.some((issue) => issue.path === 'target'))
    issues.push({ path: 'target', message: MISPLACED_REFERENCE });

  issues.push(...crossFieldIssues(fields));
  const reported = new Set(issues.map((issue) => issue.path));
  issues.push(...reservedKeyIssues(input).filter((issue) => !reported.has(issue.path)));
  if (issues.length > 0) return { ok: false, issues };

  const { slug, name, type, enabled, intervalSeconds, target, thresholds, labels, description } = fields as CommonFields;
  const check = {
    slug: slug ?? slugify(name),
    name,
    type,
    enabled,
    intervalSeconds,
    target: target ?? '',
    config,
    thresholds,
    labels,
    ...(description === undefined ? {} : { description }),
  };
  return { ok: true, check: check as CheckDefinition };
}
