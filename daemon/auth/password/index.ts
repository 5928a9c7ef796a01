/** Password hashing: the policy, its validation, stored-hash parsing and the hasher. */
export {
  DEFAULT_POLICY,
  PASSWORD_ALGORITHMS,
  isPasswordAlgorithm,
  mergePolicy,
  type Argon2Params,
  type BcryptParams,
  type PasswordAlgorithm,
  type PasswordPolicy,
  type PolicyOverrides,
} from './policy.js';
export { PASSWORD_PRESETS, applyPreset, isPresetName, type PasswordPresetName } from './presets.js';
export {
  POLICY_LIMITS,
  PasswordPolicyError,
  RECOMMENDED_FLOORS,
  assertValidPolicy,
  formatIssue,
  validatePolicy,
  validatePolicyOverrides,
  type PolicyIssue,
  type PolicyValidation,
} from './validate-policy.js';
export {
  hashMatchesPolicy,
  parseStoredHash,
  type Argon2HashInfo,
  type BcryptHashInfo,
  type HashInfo,
} from './hashes.js';
export { bcryptPrehash } from './bcrypt-prehash.js';
export { createSemaphore, type Semaphore } from './semaphore.js';
export { createPasswordHasher, type PasswordHasher, type PasswordHasherOptions } from './hasher.js';
