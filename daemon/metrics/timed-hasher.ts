import type { PasswordHasher } from '../auth/password/index.js';
import type { Metrics } from './metrics.js';

/** The hasher, with the time of every hash and verification recorded in `svc_password_hash_seconds`. */
export function timedHasher(hasher: PasswordHasher, metrics: Metrics): PasswordHasher {
  const timed =
    <A extends unknown[], R>(operation: string, fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const stop = metrics.passwordHashSeconds.startTimer({ operation });
      try {
        return await fn(...args);
      } finally {
        stop();
      }
    };
  return {
    get policy() {
      return hasher.policy;
    },
    hash: timed('hash', (password: string) => hasher.hash(password)),
    verify: timed('verify', (storedHash: string, password: string) => hasher.verify(storedHash, password)),
    needsRehash: (storedHash) => hasher.needsRehash(storedHash),
    verifyDummy: timed('verify', (password: string) => hasher.verifyDummy(password)),
    get active() {
      return hasher.active;
    },
    get pending() {
      return hasher.pending;
    },
    close: () => hasher.close(),
  };
}
