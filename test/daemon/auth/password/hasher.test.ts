import { afterAll, describe, expect, it } from 'vitest';
import { createPasswordHasher, type PasswordHasher } from '../../../../daemon/auth/password/hasher.js';
import { parseStoredHash } from '../../../../daemon/auth/password/hashes.js';
import { DEFAULT_POLICY, type PasswordPolicy, type PolicyOverrides } from '../../../../daemon/auth/password/policy.js';
import { PasswordPolicyError } from '../../../../daemon/auth/password/validate-policy.js';
import { cheapPolicy } from './cheap-policy.js';

const hashers: PasswordHasher[] = [];
afterAll(() => Promise.all(hashers.map((hasher) => hasher.close())));

/** A hasher under the cheap policy with `overrides`, closed after the suite. */
function hasherWith(overrides: PolicyOverrides = {}, concurrency = 2): PasswordHasher {
  const hasher = createPasswordHasher(cheapPolicy(overrides), { concurrency });
  hashers.push(hasher);
  return hasher;
}

const argon2 = hasherWith();
const bcrypt = hasherWith({ algorithm: 'bcrypt' });

describe('hash and verify', () => {
  it('writes an argon2id PHC string with every parameter of the policy and a fresh salt', async () => {
    const custom = hasherWith({ argon2: { memory: 9216, time: 2, threads: 2, keyLength: 24, saltLength: 12 } });
    const [first, second] = [await custom.hash('secret'), await custom.hash('secret')];
    expect(first).toMatch(/^\$argon2id\$v=19\$m=9216,t=2,p=2\$/);
    expect(parseStoredHash(first)).toMatchObject({ saltLength: 12, keyLength: 24 });
    expect(first).not.toBe(second);
    expect(await custom.verify(first, 'secret')).toBe(true);
    expect(await custom.verify(second, 'secret')).toBe(true);
    expect(await custom.verify(first, 'Secret')).toBe(false);
  });

  it.each([
    ['argon2id', argon2],
    ['bcrypt', bcrypt],
  ])('%s handles empty, long and non-ASCII passwords', async (_name, hasher) => {
    for (const password of ['', 'pässwörd 🔑', 'x'.repeat(4096)]) {
      const stored = await hasher.hash(password);
      expect(await hasher.verify(stored, password)).toBe(true);
      expect(await hasher.verify(stored, `${password}.`)).toBe(false);
    }
  });

  it('writes the default profile when given the default policy', async () => {
    const hasher = createPasswordHasher(DEFAULT_POLICY, { concurrency: 1 });
    hashers.push(hasher);
    const stored = await hasher.hash('default profile');
    expect(parseStoredHash(stored)).toEqual({
      algorithm: 'argon2id',
      version: 19,
      memory: 65536,
      time: 3,
      threads: 4,
      keyLength: 32,
      saltLength: 16,
    });
    expect(hasher.needsRehash(stored)).toBe(false);
    expect(await hasher.verify(stored, 'default profile')).toBe(true);
  });
});

describe('self-identifying hashes (SPEC rule 1)', () => {
  const variants: Array<[string, PolicyOverrides]> = [
    ['argon2id', {}],
    ['argon2id with other costs and lengths', { argon2: { memory: 9216, time: 2, threads: 3, keyLength: 16, saltLength: 8 } }],
    ['bcrypt', { algorithm: 'bcrypt' }],
    ['bcrypt at another cost', { algorithm: 'bcrypt', bcrypt: { cost: 11 } }],
  ];

  it('verifies a hash made under one policy after switching algorithm or costs, both ways', async () => {
    const made = await Promise.all(variants.map(async ([name, overrides]) => ({ name, stored: await hasherWith(overrides).hash(`pw of ${name}`) })));
    const checks = variants.flatMap(([verifierName, overrides]) => {
      const verifier = hasherWith(overrides);
      return made.map(async ({ name, stored }) => {
        const label = `${name} under ${verifierName}`;
        expect(await verifier.verify(stored, `pw of ${name}`), label).toBe(true);
        expect(await verifier.verify(stored, `pw of ${verifierName}`), label).toBe(name === verifierName);
      });
    });
    await Promise.all(checks);
  });

  it('verifies argon2i and argon2d hashes, and version 16 ones', async () => {
    // Written by the reference tool: printf %s password | argon2 somesalt -i|-d [-v 10] -t 2 -k 8192 -e
    const stored = [
      '$argon2i$v=19$m=8192,t=2,p=1$c29tZXNhbHQ$W8Pn5WzLnhmIu9zPh9zy/yztIUHuBziGtzQViTwFvzc',
      '$argon2d$v=19$m=8192,t=2,p=1$c29tZXNhbHQ$aWF9pRn67E9lYGrf0zQjsoVyBVe36ICP2lE1QBwZvWk',
      '$argon2i$v=16$m=8192,t=2,p=1$c29tZXNhbHQ$UYapMUV9ZxI45wYx5HK0OmvRwFGO6JmjXhEKjQ5l8Ec',
      // Older encoders left out the version field of version 16.
      '$argon2i$m=8192,t=2,p=1$c29tZXNhbHQ$UYapMUV9ZxI45wYx5HK0OmvRwFGO6JmjXhEKjQ5l8Ec',
    ];
    for (const hash of stored) {
      expect(await argon2.verify(hash, 'password'), hash).toBe(true);
      expect(await bcrypt.verify(hash, 'password'), hash).toBe(true);
      expect(await argon2.verify(hash, 'passwore'), hash).toBe(false);
      expect(argon2.needsRehash(hash)).toBe(true);
    }
  });
});

describe('needsRehash', () => {
  it('is false for a hash of the current policy', async () => {
    expect(argon2.needsRehash(await argon2.hash('pw'))).toBe(false);
    expect(bcrypt.needsRehash(await bcrypt.hash('pw'))).toBe(false);
  });

  it('is true after the algorithm or any cost changed', async () => {
    const stored = await argon2.hash('pw');
    expect(bcrypt.needsRehash(stored)).toBe(true);
    expect(argon2.needsRehash(await bcrypt.hash('pw'))).toBe(true);
    for (const argon2Overrides of [{ memory: 9216 }, { time: 2 }, { threads: 2 }, { keyLength: 16 }, { saltLength: 32 }]) {
      expect(hasherWith({ argon2: argon2Overrides }).needsRehash(stored), JSON.stringify(argon2Overrides)).toBe(true);
    }
    expect(hasherWith({ algorithm: 'bcrypt', bcrypt: { cost: 11 } }).needsRehash(await bcrypt.hash('pw'))).toBe(true);
  });

  it('ignores argon2 settings under bcrypt and the bcrypt cost under argon2id', async () => {
    const stored = await bcrypt.hash('pw');
    expect(hasherWith({ algorithm: 'bcrypt', argon2: { memory: 9216 } }).needsRehash(stored)).toBe(false);
    expect(hasherWith({ bcrypt: { cost: 13 } }).needsRehash(await argon2.hash('pw'))).toBe(false);
  });

  it('is always false when re-hash on sign-in is off', async () => {
    const off = hasherWith({ algorithm: 'bcrypt', rehashOnLogin: false });
    expect(off.needsRehash(await argon2.hash('pw'))).toBe(false);
    expect(off.needsRehash('garbage')).toBe(false);
  });
});

describe('malformed stored hashes', () => {
  it.each([
    ['empty', ''],
    ['plain text', 'password'],
    ['truncated argon2id', '$argon2id$v=19$m=8192,t=1,p=1$c29tZXNhbHQ$'],
    ['argon2id with a 4-byte salt', '$argon2id$v=19$m=8192,t=1,p=1$c2FsdA$aGFzaGhhc2hoYXNoaGFzaA'],
    ['argon2id with a 3-byte key', '$argon2id$v=19$m=8192,t=1,p=1$c29tZXNhbHQ$aGFz'],
    ['argon2id below the library memory minimum', '$argon2id$v=19$m=1,t=1,p=1$c29tZXNhbHQ$aGFzaGhhc2hoYXNoaGFzaA'],
    ['argon2id with an unaffordable memory cost', '$argon2id$v=19$m=4294967295,t=1,p=1$c29tZXNhbHQ$aGFzaGhhc2hoYXNoaGFzaA'],
    ['argon2id with an unaffordable time cost', '$argon2id$v=19$m=8192,t=4294967295,p=1$c29tZXNhbHQ$aGFzaGhhc2hoYXNoaGFzaA'],
    ['bcrypt of the wrong length', '$2b$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhW'],
    ['bcrypt with a bad character', '$2b$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lh!y'],
    ['a different scheme', '$6$rounds=5000$saltsalt$hash'],
    ['null', null],
    ['a number', 42],
  ])('verify of %s is false, never a throw', async (_name, stored) => {
    for (const hasher of [argon2, bcrypt]) {
      expect(await hasher.verify(stored as string, 'password')).toBe(false);
    }
  });
});

describe('verifyDummy', () => {
  it.each([
    ['argon2id', argon2],
    ['bcrypt', bcrypt],
  ])('does a full %s verification and answers false', async (_name, hasher) => {
    const running = hasher.verifyDummy('any password');
    expect(hasher.active).toBe(1);
    expect(await running).toBe(false);
    expect(await hasher.verifyDummy('')).toBe(false);
  });
});

describe('bounded concurrency', () => {
  it('runs at most `concurrency` hashes and verifications at once, queueing the rest', async () => {
    const hasher = hasherWith({}, 2);
    const stored = await hasher.hash('pw');
    let peak = 0;
    const sample = () => (peak = Math.max(peak, hasher.active));
    const timer = setInterval(sample, 1);
    const work = [
      ...Array.from({ length: 4 }, () => hasher.verify(stored, 'pw')),
      ...Array.from({ length: 3 }, () => hasher.hash('pw')),
      hasher.verifyDummy('pw'),
    ];
    expect([hasher.active, hasher.pending]).toEqual([2, 6]);
    const results = await Promise.all(work);
    clearInterval(timer);
    expect(results.slice(0, 4)).toEqual([true, true, true, true]);
    expect(peak).toBe(2);
    expect([hasher.active, hasher.pending]).toEqual([0, 0]);
  });

  it('applies to bcrypt too', async () => {
    const hasher = hasherWith({ algorithm: 'bcrypt' }, 1);
    const work = [hasher.hash('a'), hasher.hash('b'), hasher.verifyDummy('c')];
    expect([hasher.active, hasher.pending]).toEqual([1, 2]);
    await Promise.all(work);
  });

  it.each([0, -1, 2.5])('refuses a concurrency of %s', (concurrency) => {
    expect(() => createPasswordHasher(cheapPolicy(), { concurrency })).toThrow(RangeError);
  });
});

describe('policy handling', () => {
  it.each([
    ['an unknown algorithm', { algorithm: 'scrypt' as PasswordPolicy['algorithm'] }, 'algorithm'],
    ['bcrypt cost 9', { algorithm: 'bcrypt' as const, bcrypt: { cost: 9 } }, 'bcrypt.cost'],
    ['bcrypt cost 32', { algorithm: 'bcrypt' as const, bcrypt: { cost: 32 } }, 'bcrypt.cost'],
    ['argon2id memory 8191 KiB', { argon2: { memory: 8191 } }, 'argon2.memory'],
  ])('refuses %s instead of falling back to anything', (_name, overrides, field) => {
    let thrown: unknown;
    try {
      createPasswordHasher(cheapPolicy(overrides), { concurrency: 1 });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(PasswordPolicyError);
    expect((thrown as PasswordPolicyError).issues.map((issue) => issue.field)).toEqual([field]);
  });

  it('keeps its own frozen copy of the policy', async () => {
    const policy = cheapPolicy();
    const hasher = hasherWith();
    const own = createPasswordHasher(policy, { concurrency: 1 });
    hashers.push(own);
    policy.argon2.memory = 1;
    policy.algorithm = 'bcrypt';
    expect(own.policy).toEqual(hasher.policy);
    expect(Object.isFrozen(own.policy.argon2)).toBe(true);
    expect(await own.hash('pw')).toMatch(/^\$argon2id\$v=19\$m=8192,/);
  });

  it('defaults the concurrency to the number of CPUs', async () => {
    const { availableParallelism } = await import('node:os');
    const hasher = createPasswordHasher(cheapPolicy());
    hashers.push(hasher);
    const work = Array.from({ length: availableParallelism() + 1 }, () => hasher.verifyDummy('pw'));
    expect([hasher.active, hasher.pending]).toEqual([availableParallelism(), 1]);
    await Promise.all(work);
  });
});

describe('close', () => {
  it('refuses work afterwards', async () => {
    const hasher = createPasswordHasher(cheapPolicy({ algorithm: 'bcrypt' }), { concurrency: 1 });
    await hasher.hash('pw');
    await hasher.close();
    await expect(hasher.hash('pw')).rejects.toThrow('closed');
    await expect(hasher.verify('$2b$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy', 'pw')).rejects.toThrow('closed');
  });

  it('refuses a password that is not a string', async () => {
    await expect(argon2.hash(undefined as unknown as string)).rejects.toThrow(TypeError);
    await expect(argon2.verify('$argon2id$', 42 as unknown as string)).rejects.toThrow(TypeError);
  });
});
