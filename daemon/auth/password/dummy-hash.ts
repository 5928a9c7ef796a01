import { randomBytes } from 'node:crypto';
import type { PasswordPolicy } from './policy.js';

const BCRYPT_ALPHABET = './ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A well-formed hash with the policy's algorithm and parameters but random salt
 * and digest, which no password matches. Verifying against it costs exactly what
 * verifying a real hash of the policy costs (the work depends on the parameters
 * only), and building it costs nothing, so even the first unknown e-mail after a
 * start takes as long as a wrong password.
 */
export function makeDummyHash(policy: PasswordPolicy): string {
  if (policy.algorithm === 'bcrypt') {
    const cost = String(policy.bcrypt.cost).padStart(2, '0');
    // 64 symbols, so the low six bits of a random byte pick one uniformly.
    const body = Array.from(randomBytes(53), (byte) => BCRYPT_ALPHABET[byte & 63]).join('');
    return `$2b$${cost}$${body}`;
  }
  const { memory, time, threads, saltLength, keyLength } = policy.argon2;
  return `$argon2id$v=19$m=${memory},t=${time},p=${threads}` + `$${unpaddedBase64(randomBytes(saltLength))}$${unpaddedBase64(randomBytes(keyLength))}`;
}

function unpaddedBase64(bytes: Buffer): string {
  return bytes.toString('base64').replace(/=+$/, '');
}
