import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Hex SHA-256: how credentials that are only ever compared are stored. */
export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** `bytes` random bytes as base64url text. */
export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');

/** Compares two strings in time independent of where they differ. */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
