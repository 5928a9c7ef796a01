import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/**
 * A new unique id that sorts by creation time: 10 characters of milliseconds, then 16 random
 * ones (80 bits), in lower-case Crockford base32. Ordered ids make cursor pagination a plain
 * comparison on one indexed column.
 */
export function newId(now = Date.now()): string {
  let time = '';
  for (let t = now, i = 0; i < 10; i++, t = Math.floor(t / 32)) time = ALPHABET[t % 32] + time;
  const random = randomBytes(16);
  let tail = '';
  for (let i = 0; i < 16; i++) tail += ALPHABET[random[i] % 32];
  return time + tail;
}
