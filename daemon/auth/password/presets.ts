import { deepFreeze, mergePolicy, type PasswordPolicy, type PolicyOverrides } from './policy.js';

/** Names of the recommended profiles offered as preset buttons. */
export type PasswordPresetName = 'default' | 'lighter' | 'min' | 'bcrypt';

/**
 * The recommended profiles. Each is a partial override (not a complete policy):
 * it sets the algorithm and that profile's cost parameters only, so applying one
 * keeps the key and salt lengths, the other algorithm's costs and the re-hash flag
 * of whatever it is applied to.
 */
export const PASSWORD_PRESETS: Readonly<Record<PasswordPresetName, Readonly<PolicyOverrides>>> = deepFreeze({
  /** 64 MiB per sign-in. */
  default: { algorithm: 'argon2id', argon2: { memory: 65536, time: 3, threads: 4 } },
  /** About 19 MiB per sign-in. */
  lighter: { algorithm: 'argon2id', argon2: { memory: 19456, time: 2, threads: 1 } },
  /** About 9 MiB per sign-in; the lowest profile without a warning. */
  min: { algorithm: 'argon2id', argon2: { memory: 9216, time: 4, threads: 1 } },
  /** About 4 KiB per sign-in, constant. */
  bcrypt: { algorithm: 'bcrypt', bcrypt: { cost: 12 } },
});

/** True when `name` names a preset. */
export function isPresetName(name: unknown): name is PasswordPresetName {
  return typeof name === 'string' && Object.hasOwn(PASSWORD_PRESETS, name);
}

/** The policy `base` becomes when the preset `name` is applied to it. */
export function applyPreset(base: PasswordPolicy, name: PasswordPresetName): PasswordPolicy {
  return mergePolicy(base, PASSWORD_PRESETS[name]);
}
