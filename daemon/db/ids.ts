import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/**
 * A new unique id that sorts by creation time: 10 characters of milliseconds, then 16 random
 * ones (80 bits), in lower-case Crockford base32. Ordered ids make cursor pagination a plain
 * comparison on one indexed column.
 */
export function newId(now = Date.now()): string {
  return newIds(1, now)[0];
}

/** `count` new ids made at `now` (see newId), from one draw of random bytes rather than one each. */
export function newIds(count: number, now = Date.now()): string[] {
  let time = '';
  for (let t = now, i = 0; i < 10; i++, t = Math.floor(t / 32)) time = ALPHABET[t % 32] + time;
  const random = randomBytes(16 * count);
  const ids: string[] = [];
  for (let at = 0; at < random.length; at += 16) {
    let tail = '';
    for (let i = at; i < at + 16; i++) tail += ALPHABET[random[i] % 32];
    ids.push(time + tail);
  }
  return ids;
}
