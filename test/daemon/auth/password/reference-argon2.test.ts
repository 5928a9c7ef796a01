/**
 * Interoperability with the reference argon2 implementation, through its
 * command-line tool (Debian's `argon2` package): hashes written here must be what
 * libargon2 writes, and hashes libargon2 writes must verify here.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createPasswordHasher, type PasswordHasher } from '../../../../daemon/auth/password/hasher.js';
import { DEFAULT_POLICY, type Argon2Params, type PasswordPolicy } from '../../../../daemon/auth/password/policy.js';
import { cheapPolicy } from './cheap-policy.js';

const REFERENCE = '/usr/bin/argon2';
const available = existsSync(REFERENCE);
const required = process.env.CI === 'true';
if (!available && !required) {
  console.warn(`skipping the argon2 reference interop tests: ${REFERENCE} is not installed (Debian package argon2)`);
}

/**
 * The encoded hash the reference tool writes. It reads the password's raw bytes
 * from stdin and takes the salt as an argument; bash's $'\xHH' quoting passes
 * any salt bytes except NUL, which an argument cannot hold.
 */
function referenceHash(password: string, salt: Buffer, params: Omit<Argon2Params, 'saltLength'>, type = '-id'): string {
  if (salt.includes(0)) throw new Error('a salt with a NUL byte cannot be passed to the reference tool');
  const quotedSalt = `$'${[...salt].map((byte) => `\\x${byte.toString(16).padStart(2, '0')}`).join('')}'`;
  const { memory, time, threads, keyLength } = params;
  const script = `exec ${REFERENCE} ${quotedSalt} ${type} -t ${time} -k ${memory} -p ${threads} -l ${keyLength} -e`;
  const run = spawnSync('bash', ['-c', script], { input: Buffer.from(password, 'utf8') });
  if (run.status !== 0) throw new Error(`${REFERENCE} failed: ${run.stderr.toString() || run.error}`);
  return run.stdout.toString().trim();
}

function saltOf(stored: string): Buffer {
  return Buffer.from(stored.split('$')[4], 'base64');
}

const hashers: PasswordHasher[] = [];
afterAll(() => Promise.all(hashers.map((hasher) => hasher.close())));

function hasherFor(policy: PasswordPolicy): PasswordHasher {
  const hasher = createPasswordHasher(policy, { concurrency: 1 });
  hashers.push(hasher);
  return hasher;
}

// The reference tool refuses an empty password and one over 127 bytes.
const PASSWORDS = ['correct horse battery staple', 'pässwörd 🔑', 'nul\0inside', 'long '.repeat(25)];

describe.skipIf(!available && !required)('argon2 reference implementation', () => {
  it('is installed', () => {
    expect(available, `${REFERENCE} is required when CI=true`).toBe(true);
  });

  it.each<[string, PasswordPolicy]>([
    ['the cheap test policy', cheapPolicy()],
    ['several lanes and other lengths', cheapPolicy({ argon2: { memory: 9216, time: 2, threads: 3, keyLength: 24, saltLength: 12 } })],
    ['the default profile', DEFAULT_POLICY],
  ])('writes the hashes libargon2 writes, under %s', async (_name, policy) => {
    const hasher = hasherFor(policy);
    const params = hasher.policy.argon2;
    for (const password of PASSWORDS) {
      let stored = await hasher.hash(password);
      // A random salt holds a NUL byte now and then; the reference tool cannot take one.
      while (saltOf(stored).includes(0)) stored = await hasher.hash(password);
      expect(saltOf(stored)).toHaveLength(params.saltLength);
      expect(referenceHash(password, saltOf(stored), params), JSON.stringify(password)).toBe(stored);
    }
  });

  it('verifies the hashes libargon2 writes', async () => {
    const params = { memory: 8192, time: 2, threads: 2, keyLength: 20 };
    const hasher = hasherFor(cheapPolicy({ argon2: { ...params, saltLength: 10 } }));
    for (const password of PASSWORDS) {
      const stored = referenceHash(password, Buffer.from('salt-bytes'), params);
      expect(stored).toMatch(/^\$argon2id\$v=19\$m=8192,t=2,p=2\$/);
      expect(await hasher.verify(stored, password), JSON.stringify(password)).toBe(true);
      expect(await hasher.verify(stored, `${password}!`)).toBe(false);
      expect(hasher.needsRehash(stored)).toBe(false);
    }
  });

  it('verifies argon2i and argon2d hashes libargon2 writes, under any policy', async () => {
    const params = { memory: 8192, time: 1, threads: 1, keyLength: 32 };
    const hasher = hasherFor(cheapPolicy({ algorithm: 'bcrypt' }));
    for (const type of ['-i', '-d']) {
      const stored = referenceHash('password', Buffer.from('somesalt'), params, type);
      expect(await hasher.verify(stored, 'password'), stored).toBe(true);
      expect(await hasher.verify(stored, 'Password'), stored).toBe(false);
      expect(hasher.needsRehash(stored)).toBe(true);
    }
  });
});
