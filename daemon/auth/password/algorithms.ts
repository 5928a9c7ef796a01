/** Hashing algorithms accepted for new hashes. */
export const PASSWORD_ALGORITHMS = ['argon2id', 'bcrypt'] as const;

/** An algorithm accepted for new hashes. */
export type PasswordAlgorithm = (typeof PASSWORD_ALGORITHMS)[number];

/** True when `value` names an algorithm accepted for new hashes. */
export function isPasswordAlgorithm(value: unknown): value is PasswordAlgorithm {
  return typeof value === 'string' && (PASSWORD_ALGORITHMS as readonly string[]).includes(value);
}
