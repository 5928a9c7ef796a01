import { createHash } from 'node:crypto';

/**
 * The string bcrypt actually hashes: base64 of the SHA-256 digest of the
 * password's UTF-8 bytes. bcrypt reads at most 72 bytes and stops at a NUL; the
 * 44-character digest has neither problem, so every byte of a password counts.
 */
export function bcryptPrehash(password: string): string {
  return createHash('sha256').update(password, 'utf8').digest('base64');
}
