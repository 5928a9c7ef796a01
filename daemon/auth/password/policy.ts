/**
 * The password hashing policy: its shape, the built-in default, and how layered
 * overrides (configuration file, environment, stored dashboard values) combine.
 */

import type { PasswordAlgorithm } from './algorithms.js';

export { PASSWORD_ALGORITHMS, isPasswordAlgorithm, type PasswordAlgorithm } from './algorithms.js';

/** argon2id cost parameters. */
export type Argon2Params = {
  /** Memory cost in KiB. */
  memory: number;
  /** Number of passes over memory. */
  time: number;
  /** Degree of parallelism (lanes). */
  threads: number;
  /** Length of the derived key in bytes. */
  keyLength: number;
  /** Length of the random salt in bytes. */
  saltLength: number;
};

/** bcrypt cost parameters. */
export type BcryptParams = {
  /** log2 of the number of key-expansion rounds. */
  cost: number;
};

/** The complete hashing policy; also the shape the public API shows. */
export type PasswordPolicy = {
  algorithm: PasswordAlgorithm;
  argon2: Argon2Params;
  bcrypt: BcryptParams;
  /** Re-hash a password under the current policy on the next successful sign-in. */
  rehashOnLogin: boolean;
};

/**
 * A partial policy layered over another one. An absent or null field inherits
 * the value underneath, which is how a blank dashboard field means "server default".
 */
export type PolicyOverrides = {
  algorithm?: PasswordAlgorithm | null;
  argon2?: { [K in keyof Argon2Params]?: number | null } | null;
  bcrypt?: { [K in keyof BcryptParams]?: number | null } | null;
  rehashOnLogin?: boolean | null;
};

/** The built-in policy: argon2id at 64 MiB, 3 passes, 4 lanes. */
export const DEFAULT_POLICY: PasswordPolicy = deepFreeze({
  algorithm: 'argon2id',
  argon2: { memory: 65536, time: 3, threads: 4, keyLength: 32, saltLength: 16 },
  bcrypt: { cost: 12 },
  rehashOnLogin: true,
});

/**
 * Layers overrides over a base policy, later layers winning. Absent and null
 * fields inherit. The result is a fresh object (the inputs are never mutated)
 * and is not validated: pass it to `validatePolicy`.
 */
export function mergePolicy(base: PasswordPolicy, ...layers: Array<PolicyOverrides | null | undefined>): PasswordPolicy {
  const result: PasswordPolicy = {
    algorithm: base.algorithm,
    argon2: { ...base.argon2 },
    bcrypt: { ...base.bcrypt },
    rehashOnLogin: base.rehashOnLogin,
  };
  for (const layer of layers) {
    if (layer == null) continue;
    if (layer.algorithm != null) result.algorithm = layer.algorithm;
    if (layer.rehashOnLogin != null) result.rehashOnLogin = layer.rehashOnLogin;
    assignPresent(result.argon2, layer.argon2);
    assignPresent(result.bcrypt, layer.bcrypt);
  }
  return result;
}

/** A deep, frozen copy, so a policy held by a hasher cannot change under it. */
export function freezePolicy(policy: PasswordPolicy): Readonly<PasswordPolicy> {
  return deepFreeze(mergePolicy(policy));
}

function assignPresent<T extends object>(target: T, source: { [K in keyof T]?: T[K] | null } | null | undefined): void {
  if (source == null) return;
  for (const key of Object.keys(target) as Array<keyof T>) {
    const value = source[key];
    if (value != null) target[key] = value;
  }
}

/** Freezes `value` and every object inside it; returns `value`. */
export function deepFreeze<T extends object>(value: T): T {
  for (const inner of Object.values(value)) {
    if (typeof inner === 'object' && inner !== null) deepFreeze(inner);
  }
  return Object.freeze(value);
}
