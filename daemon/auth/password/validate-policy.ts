/**
 * Validation of hashing policies (at start-up) and of user-supplied overrides
 * (at dashboard save and when stored overrides are read at boot).
 */
import { isPasswordAlgorithm, PASSWORD_ALGORITHMS } from './algorithms.js';
import type { PasswordPolicy } from './policy.js';

/** One problem with a policy value. */
export type PolicyIssue = {
  /** camelCase path of the value, such as `argon2.memory`; empty for the whole value. */
  field: string;
  message: string;
};

/** Errors make a policy unusable; warnings flag valid values below the recommended floors. */
export type PolicyValidation = { errors: PolicyIssue[]; warnings: PolicyIssue[] };

type Range = { min: number; max: number; unit: string };

/**
 * Accepted ranges. The lower bounds are argon2's own (salt of 8 bytes, key of 4)
 * or the service's (memory floor, bcrypt cost range); the upper bounds keep one
 * sign-in from taking the server down. argon2 also requires memory of at least
 * 8 KiB per lane; with at most 255 lanes that is 2040 KiB, below the memory floor,
 * so the floor covers it.
 */
export const POLICY_LIMITS = Object.freeze({
  'argon2.memory': { min: 8192, max: 4 * 1024 * 1024, unit: ' KiB' },
  'argon2.time': { min: 1, max: 1000, unit: '' },
  'argon2.threads': { min: 1, max: 255, unit: '' },
  'argon2.keyLength': { min: 4, max: 1024, unit: ' bytes' },
  'argon2.saltLength': { min: 8, max: 1024, unit: ' bytes' },
  'bcrypt.cost': { min: 10, max: 31, unit: '' },
} satisfies Record<string, Range>);

/**
 * Recommended floors (OWASP): argon2id memory × time of 9216 KiB × 4 (which also
 * admits 19456 × 2 and 12288 × 3), and salt and key of 16 bytes.
 */
export const RECOMMENDED_FLOORS = Object.freeze({
  argon2MemoryTime: 9216 * 4,
  saltLength: 16,
  keyLength: 16,
});

/** A policy with errors, thrown where the service must not start with it. */
export class PasswordPolicyError extends Error {
  readonly issues: PolicyIssue[];

  constructor(issues: PolicyIssue[]) {
    super(`invalid password hashing policy: ${issues.map(formatIssue).join('; ')}`);
    this.name = 'PasswordPolicyError';
    this.issues = issues;
  }
}

/** `field: message`, for logs and error messages. */
export function formatIssue(issue: PolicyIssue): string {
  return issue.field === '' ? issue.message : `${issue.field}: ${issue.message}`;
}

type Rule = (value: unknown) => string | null;

const RULES: Record<string, Rule> = {
  algorithm: (value) => (isPasswordAlgorithm(value) ? null : `unknown algorithm ${describeValue(value)}; expected one of ${PASSWORD_ALGORITHMS.join(', ')}`),
  rehashOnLogin: (value) => (typeof value === 'boolean' ? null : 'must be true or false'),
  ...Object.fromEntries(Object.entries(POLICY_LIMITS).map(([path, range]) => [path, (value: unknown) => checkInteger(value, range)])),
};

const SECTIONS = { argon2: ['memory', 'time', 'threads', 'keyLength', 'saltLength'], bcrypt: ['cost'] } as const;
const TOP_LEVEL = ['algorithm', 'argon2', 'bcrypt', 'rehashOnLogin'] as const;

/**
 * Checks a complete policy. Every knob is checked whatever the algorithm, so a
 * bad value cannot lurk until someone switches to it; the warnings concern
 * the selected algorithm only. Values are checked at run time, so a policy built
 * from untyped input is caught too.
 */
export function validatePolicy(policy: PasswordPolicy): PolicyValidation {
  const errors: PolicyIssue[] = [];
  const raw = policy as unknown as Record<string, unknown>;
  if (!isPlainObject(raw)) return { errors: [{ field: '', message: 'must be an object' }], warnings: [] };
  for (const key of TOP_LEVEL) {
    if (key === 'argon2' || key === 'bcrypt') {
      const values = raw[key];
      if (!isPlainObject(values)) errors.push({ field: key, message: 'must be an object' });
      else for (const field of SECTIONS[key]) check(errors, `${key}.${field}`, values[field]);
    } else {
      check(errors, key, raw[key]);
    }
  }
  return { errors, warnings: errors.length === 0 ? floorWarnings(policy) : [] };
}

/**
 * Checks user-supplied overrides: an object shaped like a partial policy, where
 * null or absent means inherit. Reports wrong types, values out of range and
 * unknown keys, each with its path, in the order `validatePolicy` uses. An
 * empty result means `input` is a valid `PolicyOverrides`.
 */
export function validatePolicyOverrides(input: unknown): PolicyIssue[] {
  const issues: PolicyIssue[] = [];
  if (input == null) return issues;
  if (!isPlainObject(input)) return [{ field: '', message: 'must be an object' }];
  for (const key of TOP_LEVEL) {
    const value = input[key];
    if (value == null) continue;
    if (key === 'argon2' || key === 'bcrypt') checkSection(issues, key, value);
    else check(issues, key, value);
  }
  for (const key of unknownKeys(input, TOP_LEVEL)) issues.push({ field: key, message: 'unknown setting' });
  return issues;
}

/**
 * Throws a `PasswordPolicyError` when the policy has errors; otherwise returns
 * its warnings, for the caller to log.
 */
export function assertValidPolicy(policy: PasswordPolicy): PolicyIssue[] {
  const { errors, warnings } = validatePolicy(policy);
  if (errors.length > 0) throw new PasswordPolicyError(errors);
  return warnings;
}

function checkSection(issues: PolicyIssue[], section: keyof typeof SECTIONS, value: unknown): void {
  if (!isPlainObject(value)) {
    issues.push({ field: section, message: 'must be an object' });
    return;
  }
  for (const field of SECTIONS[section]) {
    if (value[field] != null) check(issues, `${section}.${field}`, value[field]);
  }
  for (const field of unknownKeys(value, SECTIONS[section])) {
    issues.push({ field: `${section}.${field}`, message: 'unknown setting' });
  }
}

function floorWarnings(policy: PasswordPolicy): PolicyIssue[] {
  if (policy.algorithm !== 'argon2id') return [];
  const warnings: PolicyIssue[] = [];
  const { memory, time, keyLength, saltLength } = policy.argon2;
  if (memory * time < RECOMMENDED_FLOORS.argon2MemoryTime) {
    warnings.push({
      field: 'argon2.memory',
      message:
        `memory × time is ${memory} KiB × ${time}, below the recommended ` + `${RECOMMENDED_FLOORS.argon2MemoryTime} (such as 9216 KiB × 4 or 19456 KiB × 2)`,
    });
  }
  if (saltLength < RECOMMENDED_FLOORS.saltLength) {
    warnings.push({
      field: 'argon2.saltLength',
      message: `${saltLength} bytes is below the recommended ${RECOMMENDED_FLOORS.saltLength}`,
    });
  }
  if (keyLength < RECOMMENDED_FLOORS.keyLength) {
    warnings.push({
      field: 'argon2.keyLength',
      message: `${keyLength} bytes is below the recommended ${RECOMMENDED_FLOORS.keyLength}`,
    });
  }
  return warnings;
}

function check(issues: PolicyIssue[], path: string, value: unknown): void {
  const message = RULES[path](value);
  if (message !== null) issues.push({ field: path, message });
}

function checkInteger(value: unknown, { min, max, unit }: Range): string | null {
  if (typeof value !== 'number' || !Number.isInteger(value)) return 'must be an integer';
  if (value < min) return `must be at least ${min}${unit}`;
  if (value > max) return `must be at most ${max}${unit}`;
  return null;
}

// Never throws, whatever the value: validation must report, not crash.
function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'object' && value !== null) return Array.isArray(value) ? 'an array' : 'an object';
  return String(value);
}

function unknownKeys(value: Record<string, unknown>, known: readonly string[]): string[] {
  return Object.keys(value).filter((key) => !known.includes(key));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
