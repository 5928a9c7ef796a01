import { hash as argon2Hash } from '@node-rs/argon2';
import bcryptjs from 'bcryptjs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeDummyHash } from '../../../../daemon/auth/password/dummy-hash.js';
import { hashMatchesPolicy, parseStoredHash } from '../../../../daemon/auth/password/hashes.js';
import { DEFAULT_POLICY, mergePolicy, type PolicyOverrides } from '../../../../daemon/auth/password/policy.js';

// The reference vector of the argon2 specification's command-line tool.
const ARGON2ID_SAMPLE = '$argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG';
const BCRYPT_SAMPLE = '$2b$12$GhvMmNVjRW29ulnudl.LbuAnUtN/LRfe1JsBm1Xu6LE3059z5Tr8m';

describe('parseStoredHash', () => {
  it('reads an argon2id PHC string, with key and salt lengths from the decoded base64', () => {
    expect(parseStoredHash(ARGON2ID_SAMPLE)).toEqual({
      algorithm: 'argon2id',
      version: 19,
      memory: 65536,
      time: 3,
      threads: 4,
      saltLength: 8,
      keyLength: 24,
    });
  });

  it('reads argon2i and argon2d, and a string without a version as version 16', () => {
    expect(parseStoredHash('$argon2i$v=19$m=4096,t=3,p=1$c29tZXNhbHQ$iWh06vD8Fy27wf9npn6FXWiCX4K6pW6Ue1Bnzz07Z8A')).toMatchObject({
      algorithm: 'argon2i',
      version: 19,
      memory: 4096,
      time: 3,
      threads: 1,
      saltLength: 8,
      keyLength: 32,
    });
    expect(parseStoredHash('$argon2d$m=8192,t=1,p=2$c29tZXNhbHQ$aGFzaA')).toMatchObject({
      algorithm: 'argon2d',
      version: 16,
      threads: 2,
      keyLength: 4,
    });
  });

  it('accepts the parameters in any order', () => {
    expect(parseStoredHash('$argon2id$v=19$p=4,t=3,m=65536$c29tZXNhbHQ$aGFzaGhhc2g')).toMatchObject({
      memory: 65536,
      time: 3,
      threads: 4,
    });
  });

  it.each([
    ['$2a$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy', '2a', 10],
    [BCRYPT_SAMPLE, '2b', 12],
    ['$2y$04$usesomesillystringfore2uDLvp1Ii2e./U9C8sBjqp8I90dH6hi', '2y', 4],
  ])('reads bcrypt %s', (stored, variant, cost) => {
    expect(parseStoredHash(stored)).toEqual({ algorithm: 'bcrypt', variant, cost });
  });

  it('reads what the libraries write', async () => {
    const argon2 = await argon2Hash('pw', { memoryCost: 8192, timeCost: 2, parallelism: 3, outputLen: 20, salt: Buffer.alloc(11, 7) });
    expect(parseStoredHash(argon2)).toEqual({
      algorithm: 'argon2id',
      version: 19,
      memory: 8192,
      time: 2,
      threads: 3,
      saltLength: 11,
      keyLength: 20,
    });
    expect(parseStoredHash(bcryptjs.hashSync('pw', 4))).toEqual({ algorithm: 'bcrypt', variant: '2b', cost: 4 });
  });

  it.each([
    '',
    'password',
    '$argon2id$',
    '$argon2x$v=19$m=65536,t=3,p=4$c29tZXNhbHQ$aGFzaGhhc2g',
    '$argon2id$v=18$m=65536,t=3,p=4$c29tZXNhbHQ$aGFzaGhhc2g',
    '$argon2id$v=19$m=65536,t=3$c29tZXNhbHQ$aGFzaGhhc2g',
    '$argon2id$v=19$m=65536,t=3,p=4,p=4$c29tZXNhbHQ$aGFzaGhhc2g',
    '$argon2id$v=19$m=65536,t=3,p=4,x=1$c29tZXNhbHQ$aGFzaGhhc2g',
    '$argon2id$v=19$m=065536,t=3,p=4$c29tZXNhbHQ$aGFzaGhhc2g',
    '$argon2id$v=19$m=65536,t=0,p=4$c29tZXNhbHQ$aGFzaGhhc2g',
    '$argon2id$v=19$m=99999999999,t=3,p=4$c29tZXNhbHQ$aGFzaGhhc2g',
    '$argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHQ=$aGFzaGhhc2g',
    '$argon2id$v=19$m=65536,t=3,p=4$c29tZ$aGFzaGhhc2g',
    '$argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHQ$aGFz-GhhczI',
    '$argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHQ$',
    `${ARGON2ID_SAMPLE}\n`,
    BCRYPT_SAMPLE.slice(0, -1),
    `${BCRYPT_SAMPLE}x`,
    BCRYPT_SAMPLE.replace('$2b$', '$2x$'),
    BCRYPT_SAMPLE.replace('$12$', '$03$'),
    BCRYPT_SAMPLE.replace('$12$', '$32$'),
    BCRYPT_SAMPLE.replace('Ghv', 'G+v'),
  ])('rejects %j', (stored) => {
    expect(parseStoredHash(stored)).toBeNull();
  });

  it.each([null, undefined, 42, {}])('rejects the non-string %j', (stored) => {
    expect(parseStoredHash(stored)).toBeNull();
  });

  it('never throws, whatever the input (property)', () => {
    const fragments = fc.constantFrom('$', 'argon2id', 'argon2i', '2b', 'v=19', 'm=1', ',', 't=2', 'p=1', 'c29tZXNhbHQ', '12', '=');
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.array(fragments).map((parts) => parts.join('')),
        ),
        (stored) => {
          parseStoredHash(stored);
        },
      ),
    );
  });
});

describe('hashMatchesPolicy', () => {
  const policyFor = (overrides: PolicyOverrides) => mergePolicy(DEFAULT_POLICY, overrides);
  const matching = makeDummyHash(DEFAULT_POLICY);

  it('is true for a hash with the algorithm and every parameter of the policy', () => {
    expect(hashMatchesPolicy(matching, DEFAULT_POLICY)).toBe(true);
    expect(hashMatchesPolicy(ARGON2ID_SAMPLE, policyFor({ argon2: { saltLength: 8, keyLength: 24 } }))).toBe(true);
  });

  it.each([
    ['memory', 65537],
    ['time', 2],
    ['threads', 1],
    ['keyLength', 31],
    ['saltLength', 32],
  ])('is false when argon2 %s differs', (field, value) => {
    expect(hashMatchesPolicy(matching, policyFor({ argon2: { [field]: value } }))).toBe(false);
  });

  it('is false for argon2i, argon2d and version 16 hashes of the same parameters', () => {
    for (const variant of ['$argon2i$v=19$', '$argon2d$v=19$', '$argon2id$v=16$', '$argon2id$']) {
      expect(hashMatchesPolicy(matching.replace('$argon2id$v=19$', variant), DEFAULT_POLICY), variant).toBe(false);
    }
  });

  it('compares bcrypt hashes by cost, whatever the variant', () => {
    const bcryptPolicy = policyFor({ algorithm: 'bcrypt' });
    expect(hashMatchesPolicy(BCRYPT_SAMPLE, bcryptPolicy)).toBe(true);
    expect(hashMatchesPolicy(BCRYPT_SAMPLE.replace('$2b$', '$2y$'), bcryptPolicy)).toBe(true);
    expect(hashMatchesPolicy(BCRYPT_SAMPLE, policyFor({ algorithm: 'bcrypt', bcrypt: { cost: 13 } }))).toBe(false);
  });

  it('is false across algorithms and for malformed hashes', () => {
    expect(hashMatchesPolicy(BCRYPT_SAMPLE, DEFAULT_POLICY)).toBe(false);
    expect(hashMatchesPolicy(matching, policyFor({ algorithm: 'bcrypt' }))).toBe(false);
    expect(hashMatchesPolicy('not a hash', DEFAULT_POLICY)).toBe(false);
  });

  it('holds for a hash shaped by any valid policy, and for no other (property)', () => {
    const argon2 = fc.record({
      memory: fc.integer({ min: 8192, max: 4 * 1024 * 1024 }),
      time: fc.integer({ min: 1, max: 1000 }),
      threads: fc.integer({ min: 1, max: 255 }),
      keyLength: fc.integer({ min: 4, max: 1024 }),
      saltLength: fc.integer({ min: 8, max: 1024 }),
    });
    const policy = fc.record({
      algorithm: fc.constantFrom('argon2id' as const, 'bcrypt' as const),
      argon2,
      bcrypt: fc.record({ cost: fc.integer({ min: 10, max: 31 }) }),
      rehashOnLogin: fc.boolean(),
    });
    fc.assert(
      fc.property(policy, policy, (a, b) => {
        const stored = makeDummyHash(a);
        expect(hashMatchesPolicy(stored, a)).toBe(true);
        const same =
          a.algorithm === b.algorithm && (a.algorithm === 'bcrypt' ? a.bcrypt.cost === b.bcrypt.cost : JSON.stringify(a.argon2) === JSON.stringify(b.argon2));
        expect(hashMatchesPolicy(stored, b)).toBe(same);
      }),
    );
  });
});
