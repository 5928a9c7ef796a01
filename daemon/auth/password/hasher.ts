/**
 * Hashing and verifying passwords under a policy. New hashes follow the policy;
 * any stored hash, whatever made it, still verifies.
 */
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { hash as argon2Hash, verify as argon2Verify, type Algorithm, type Version } from '@node-rs/argon2';
import { bcryptPrehash } from './bcrypt-prehash.js';
import { createBcryptPool } from './bcrypt-pool.js';
import { makeDummyHash } from './dummy-hash.js';
import { hashMatchesPolicy, parseStoredHash, type HashInfo } from './hashes.js';
import { freezePolicy, type PasswordPolicy } from './policy.js';
import { createSemaphore } from './semaphore.js';
import { assertValidPolicy, POLICY_LIMITS } from './validate-policy.js';

/** Hashes and verifies passwords; one per process, shared by the sign-in routes. */
export type PasswordHasher = {
  /** The policy new hashes follow (frozen). */
  readonly policy: Readonly<PasswordPolicy>;
  /** A new self-identifying hash of `password` under the policy, with a fresh salt. */
  hash(password: string): Promise<string>;
  /**
   * Whether `password` matches `storedHash`, whatever policy made it. A malformed
   * hash, or one with costs beyond any valid policy, is simply false; this rejects
   * only when the hasher is closed or a bcrypt worker fails.
   */
  verify(storedHash: string, password: string): Promise<boolean>;
  /** Whether a hash that just verified should be replaced by one under the policy. */
  needsRehash(storedHash: string): boolean;
  /**
   * The work of verifying a wrong password against a hash of the policy, for a
   * sign-in with an unknown e-mail, so it cannot be told apart by its timing.
   */
  verifyDummy(password: string): Promise<false>;
  /** Hashes and verifications running now (at most the concurrency). */
  readonly active: number;
  /** Hashes and verifications waiting for a slot. */
  readonly pending: number;
  /** Stops the bcrypt worker threads; later calls reject. */
  close(): Promise<void>;
};

/** Options of `createPasswordHasher`. */
export type PasswordHasherOptions = {
  /**
   * Hashes and verifications running at once, argon2 and bcrypt alike; more wait
   * in a queue. Peak memory is about concurrency × argon2 memory. Defaults to the
   * number of CPUs.
   */
  concurrency?: number;
};

// @node-rs/argon2 declares these as const enums, which exist only at compile time.
const ARGON2ID = 2 as Algorithm;
const VERSION_0X13 = 1 as Version;

/**
 * A hasher for `policy`. Throws a `PasswordPolicyError` when the policy is
 * invalid: the service must not start with a policy it would silently replace.
 */
export function createPasswordHasher(policy: PasswordPolicy, options: PasswordHasherOptions = {}): PasswordHasher {
  assertValidPolicy(policy);
  const current = freezePolicy(policy);
  const concurrency = options.concurrency ?? availableParallelism();
  const semaphore = createSemaphore(concurrency);
  // The semaphore already bounds the bcrypt work, so the pool never needs more threads.
  const bcrypt = createBcryptPool(concurrency);
  const dummyHash = makeDummyHash(current);
  let closed = false;

  const guard = (password: unknown): void => {
    if (closed) throw new Error('password hasher is closed');
    if (typeof password !== 'string') throw new TypeError('password must be a string');
  };

  const verify = async (storedHash: string, password: string): Promise<boolean> => {
    guard(password);
    const info = parseStoredHash(storedHash);
    if (info === null || !withinLimits(info)) return false;
    return semaphore.run(async () => {
      if (info.algorithm === 'bcrypt') return bcrypt.compare(bcryptPrehash(password), storedHash);
      try {
        return await argon2Verify(storedHash, password);
      } catch {
        // Rejected by the library (a salt or key too short, say): malformed, so no match.
        return false;
      }
    });
  };

  return {
    policy: current,
    async hash(password) {
      guard(password);
      return semaphore.run(() => {
        if (current.algorithm === 'bcrypt') return bcrypt.hash(bcryptPrehash(password), current.bcrypt.cost);
        const { memory, time, threads, keyLength, saltLength } = current.argon2;
        return argon2Hash(password, {
          algorithm: ARGON2ID,
          version: VERSION_0X13,
          memoryCost: memory,
          timeCost: time,
          parallelism: threads,
          outputLen: keyLength,
          salt: randomBytes(saltLength),
        });
      });
    },
    verify,
    needsRehash(storedHash) {
      return current.rehashOnLogin && !hashMatchesPolicy(storedHash, current);
    },
    async verifyDummy(password) {
      await verify(dummyHash, password);
      return false;
    },
    get active() {
      return semaphore.active;
    },
    get pending() {
      return semaphore.pending;
    },
    async close() {
      closed = true;
      await bcrypt.close();
    },
  };
}

/**
 * Stored hashes are trusted for their format only: costs beyond what a policy may
 * set (a 64 GiB argon2 memory, say) are refused rather than attempted.
 */
function withinLimits(info: HashInfo): boolean {
  if (info.algorithm === 'bcrypt') return true;
  return (
    info.memory <= POLICY_LIMITS['argon2.memory'].max &&
    info.time <= POLICY_LIMITS['argon2.time'].max &&
    info.threads <= POLICY_LIMITS['argon2.threads'].max &&
    info.keyLength <= POLICY_LIMITS['argon2.keyLength'].max &&
    info.saltLength <= POLICY_LIMITS['argon2.saltLength'].max
  );
}
