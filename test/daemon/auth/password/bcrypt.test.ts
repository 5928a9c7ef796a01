import bcryptjs from 'bcryptjs';
import { afterAll, describe, expect, it } from 'vitest';
import { bcryptPrehash } from '../../../../daemon/auth/password/bcrypt-prehash.js';
import { createBcryptPool } from '../../../../daemon/auth/password/bcrypt-pool.js';
import { createPasswordHasher } from '../../../../daemon/auth/password/hasher.js';
import { cheapPolicy } from './cheap-policy.js';

const hasher = createPasswordHasher(cheapPolicy({ algorithm: 'bcrypt' }), { concurrency: 2 });
afterAll(() => hasher.close());

describe('bcrypt pre-hash (SPEC rule 2)', () => {
  it('is base64 of the SHA-256 digest of the UTF-8 password', () => {
    // Expected values from: printf %s "$password" | sha256sum | xxd -r -p | base64
    expect(bcryptPrehash('password')).toBe('XohImNooBHFR0OVvjcYpJ3NgPQ1qq73WKhHvch0VQtg=');
    expect(bcryptPrehash('pässwörd')).toBe('RpcL73Cs7YEj8NXQlHF+KlzUEgQeA7JjdgSf5lsoNKQ=');
    expect(bcryptPrehash('x'.repeat(1000))).toHaveLength(44);
  });

  it('is what the stored hash is a bcrypt hash of', async () => {
    const stored = await hasher.hash('correct horse');
    expect(stored).toMatch(/^\$2b\$10\$/);
    expect(bcryptjs.compareSync(bcryptPrehash('correct horse'), stored)).toBe(true);
    expect(bcryptjs.compareSync('correct horse', stored)).toBe(false);
  });

  it('tells apart passwords that share their first 72 bytes', async () => {
    const shared = 'ü'.repeat(36); // 72 bytes of UTF-8
    const [first, second] = [`${shared}1`, `${shared}2`];
    // Plain bcrypt reads only 72 bytes, so it cannot tell them apart.
    expect(bcryptjs.compareSync(second, bcryptjs.hashSync(first, 4))).toBe(true);
    const stored = await hasher.hash(first);
    expect(await hasher.verify(stored, first)).toBe(true);
    expect(await hasher.verify(stored, second)).toBe(false);
    expect(await hasher.verify(stored, shared)).toBe(false);
  });

  it('does not truncate a password at a NUL byte', async () => {
    const stored = await hasher.hash('before\0after');
    expect(await hasher.verify(stored, 'before\0after')).toBe(true);
    expect(await hasher.verify(stored, 'before')).toBe(false);
    expect(await hasher.verify(stored, 'before\0')).toBe(false);
    expect(await hasher.verify(stored, 'before\0other')).toBe(false);
  });
});

describe('bcrypt off the event loop', () => {
  it('keeps the event loop turning during a cost-12 hash', async () => {
    const costly = createPasswordHasher(cheapPolicy({ algorithm: 'bcrypt', bcrypt: { cost: 12 } }), { concurrency: 1 });
    try {
      await costly.verifyDummy('warm the worker up');
      let ticks = 0;
      const timer = setInterval(() => (ticks += 1), 5);
      const stored = await costly.hash('password');
      clearInterval(timer);
      expect(stored).toMatch(/^\$2b\$12\$/);
      // On the event loop the hash would run in one synchronous stretch, with no tick at all.
      expect(ticks).toBeGreaterThanOrEqual(3);
    } finally {
      await costly.close();
    }
  });
});

describe('createBcryptPool', () => {
  it('starts workers on demand, never more than its size', async () => {
    const pool = createBcryptPool(2);
    try {
      expect(pool.workers).toBe(0);
      const stored = await pool.hash('input', 4);
      expect(pool.workers).toBe(1);
      let peak = 0;
      const compares = Array.from({ length: 6 }, (_, index) => {
        const result = pool.compare(index === 3 ? 'input' : 'other', stored);
        peak = Math.max(peak, pool.workers);
        return result;
      });
      expect(await Promise.all(compares)).toEqual([false, false, false, true, false, false]);
      expect(peak).toBe(2);
      expect(pool.workers).toBe(2);
    } finally {
      await pool.close();
    }
  });

  it('reports a failure inside the worker as an error and keeps working', async () => {
    const pool = createBcryptPool(1);
    try {
      await expect(pool.hash('input', 'twelve' as unknown as number)).rejects.toThrow(/^bcrypt: Illegal arguments/);
      expect(await pool.compare('input', await pool.hash('input', 4))).toBe(true);
    } finally {
      await pool.close();
    }
  });

  it('stops its workers on close and refuses work afterwards', async () => {
    const pool = createBcryptPool(2);
    await pool.hash('input', 4);
    const pending = pool.hash('input', 12);
    await pool.close();
    expect(pool.workers).toBe(0);
    await expect(pending).rejects.toThrow('bcrypt pool is closed');
    await expect(pool.hash('input', 4)).rejects.toThrow('bcrypt pool is closed');
  });

  it.each([0, 1.5])('refuses the size %s', (size) => {
    expect(() => createBcryptPool(size)).toThrow(RangeError);
  });
});
