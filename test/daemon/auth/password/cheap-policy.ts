import { mergePolicy, DEFAULT_POLICY, type PasswordPolicy, type PolicyOverrides } from '../../../../daemon/auth/password/policy.js';

/**
 * The cheapest valid policy: the machine running the tests has two cores, so
 * only the tests about the default profile pay for it.
 */
export const CHEAP_POLICY: PasswordPolicy = mergePolicy(DEFAULT_POLICY, {
  argon2: { memory: 8192, time: 1, threads: 1 },
  bcrypt: { cost: 10 },
});

/** The cheap policy with some values replaced. */
export function cheapPolicy(overrides: PolicyOverrides = {}): PasswordPolicy {
  return mergePolicy(CHEAP_POLICY, overrides);
}
