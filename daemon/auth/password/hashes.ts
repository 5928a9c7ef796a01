/**
 * Reading stored password hashes. Hashes are self-identifying: the string says
 * which algorithm and which costs made it, so any stored hash can be verified
 * whatever the current policy, and compared with it to decide on a re-hash.
 */
import type { PasswordPolicy } from './policy.js';

/** What an argon2 PHC string (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`) says. */
export type Argon2HashInfo = {
  algorithm: 'argon2id' | 'argon2i' | 'argon2d';
  /** 19 (0x13) or 16 (0x10); a string without `v=` is version 16. */
  version: 16 | 19;
  memory: number;
  time: number;
  threads: number;
  saltLength: number;
  keyLength: number;
};

/** What a bcrypt modular-crypt string (`$2b$12$…`) says. */
export type BcryptHashInfo = {
  algorithm: 'bcrypt';
  variant: '2a' | '2b' | '2y';
  cost: number;
};

/** What a stored hash says about how it was made. */
export type HashInfo = Argon2HashInfo | BcryptHashInfo;

const ARGON2_PATTERN = /^\$(argon2id|argon2i|argon2d)(?:\$v=(\d+))?\$([a-z]=\d+(?:,[a-z]=\d+)*)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;
// 22 characters of salt and 31 of hash, in bcrypt's own base64 alphabet.
const BCRYPT_PATTERN = /^\$(2a|2b|2y)\$(\d\d)\$[./A-Za-z0-9]{53}$/;
const MAX_UINT32 = 2 ** 32 - 1;

/**
 * Parses a stored hash; null when it is not a well-formed argon2 or bcrypt hash.
 * Only the format is checked here: whether the costs are acceptable is for the caller.
 */
export function parseStoredHash(stored: unknown): HashInfo | null {
  if (typeof stored !== 'string') return null;
  return stored.startsWith('$argon2') ? parseArgon2(stored) : parseBcrypt(stored);
}

/**
 * True when `stored` was made with the policy's algorithm and every one of its
 * parameters, so re-hashing under the policy would change nothing but the salt.
 */
export function hashMatchesPolicy(stored: string, policy: PasswordPolicy): boolean {
  const info = parseStoredHash(stored);
  if (info === null) return false;
  if (policy.algorithm === 'bcrypt') {
    // The 2a/2b/2y variants differ only for inputs over 255 bytes; the pre-hash
    // never produces one, so any variant at the right cost is current.
    return info.algorithm === 'bcrypt' && info.cost === policy.bcrypt.cost;
  }
  if (info.algorithm !== 'argon2id' || info.version !== 19) return false;
  const want = policy.argon2;
  return (
    info.memory === want.memory &&
    info.time === want.time &&
    info.threads === want.threads &&
    info.keyLength === want.keyLength &&
    info.saltLength === want.saltLength
  );
}

function parseArgon2(stored: string): Argon2HashInfo | null {
  const match = ARGON2_PATTERN.exec(stored);
  if (match === null) return null;
  const [, algorithm, versionText, paramText, salt, key] = match;
  const version = versionText === undefined ? 16 : versionText === '19' ? 19 : versionText === '16' ? 16 : null;
  if (version === null) return null;
  const params = parseParams(paramText);
  if (params === null) return null;
  const saltLength = base64Length(salt);
  const keyLength = base64Length(key);
  if (saltLength === null || keyLength === null) return null;
  return {
    algorithm: algorithm as Argon2HashInfo['algorithm'],
    version,
    memory: params.m,
    time: params.t,
    threads: params.p,
    saltLength,
    keyLength,
  };
}

/** `m=…,t=…,p=…`, each exactly once, in any order, nothing else. */
function parseParams(text: string): { m: number; t: number; p: number } | null {
  const found: Record<string, number> = {};
  for (const pair of text.split(',')) {
    const name = pair[0];
    const digits = pair.slice(2);
    if (!['m', 't', 'p'].includes(name) || name in found) return null;
    // Canonical decimal only: a leading zero would let two strings mean one hash.
    if (digits.length > 10 || (digits.length > 1 && digits[0] === '0')) return null;
    const value = Number(digits);
    if (value < 1 || value > MAX_UINT32) return null;
    found[name] = value;
  }
  if (!('m' in found && 't' in found && 'p' in found)) return null;
  return { m: found.m, t: found.t, p: found.p };
}

/** Decoded byte length of unpadded base64, or null when the length is impossible. */
function base64Length(text: string): number | null {
  const remainder = text.length % 4;
  if (remainder === 1) return null;
  return Math.floor(text.length / 4) * 3 + (remainder === 0 ? 0 : remainder - 1);
}

function parseBcrypt(stored: string): BcryptHashInfo | null {
  const match = BCRYPT_PATTERN.exec(stored);
  if (match === null) return null;
  const cost = Number(match[2]);
  if (cost < 4 || cost > 31) return null;
  return { algorithm: 'bcrypt', variant: match[1] as BcryptHashInfo['variant'], cost };
}
