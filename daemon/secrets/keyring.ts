import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** Every value the keyring writes starts with this, followed by the key id and a colon. */
export const CIPHERTEXT_PREFIX = 'enc:v1:';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

/** A 32-byte key with its id (derived from the key, so nothing else needs to be stored). */
interface Key {
  id: string;
  bytes: Buffer;
}

const derive = (key: Buffer, info: string, length: number): Buffer => Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), info, length));

function toKey(bytes: Buffer): Key {
  if (bytes.length !== KEY_BYTES) throw new Error(`a secret key must be ${KEY_BYTES} bytes, got ${bytes.length}`);
  return { id: derive(bytes, 'svc key id', 6).toString('base64url'), bytes };
}

/**
 * The one keyring: AES-256-GCM with the current key, and an optional previous key that only
 * decrypts (rotation). A ciphertext is `enc:v1:<key id>:<base64url(iv | ciphertext | tag)>`, so
 * a reader knows which key wrote it and whether a value is encrypted at all.
 */
export interface Keyring {
  /** The id of the key new values are encrypted with. */
  readonly currentId: string;
  /** The id of the previous key, when one is configured. */
  readonly previousId?: string;
  encrypt(plaintext: string): string;
  /** Decrypts a value this keyring (current or previous key) wrote; throws otherwise. */
  decrypt(ciphertext: string): string;
  /**
   * Reads a stored secret: decrypts a ciphertext, and passes through a value still in clear
   * (written before encryption existed, e.g. by an older replica during an upgrade; the next
   * start-up seals it).
   */
  reveal(stored: string): string;
  /** A key for another purpose (session signing), derived from the current key with HKDF. */
  deriveKey(purpose: string): Buffer;
  /** A value that identifies the current key without revealing it: stored to catch a wrong key. */
  checkValue(): string;
  /** The check value of the previous key, when one is configured. */
  previousCheckValue(): string | undefined;
}

/** Whether `value` is a keyring ciphertext (of any key). */
export const isEncrypted = (value: string): boolean => value.startsWith(CIPHERTEXT_PREFIX);

/** The id of the key that wrote `ciphertext`, or undefined when it is not one. */
export function keyIdOf(ciphertext: string): string | undefined {
  if (!isEncrypted(ciphertext)) return undefined;
  const end = ciphertext.indexOf(':', CIPHERTEXT_PREFIX.length);
  return end < 0 ? undefined : ciphertext.slice(CIPHERTEXT_PREFIX.length, end);
}

/** Decodes a base64 key as configured (`SVC_SECRET_KEY`); throws a sentence on anything but 32 bytes. */
export function decodeKey(base64: string): Buffer {
  const trimmed = base64.trim();
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) throw new Error('expected base64 text');
  const bytes = Buffer.from(trimmed, 'base64');
  if (bytes.length !== KEY_BYTES) throw new Error(`expected ${KEY_BYTES} bytes encoded in base64 (e.g. openssl rand -base64 32), got ${bytes.length}`);
  return bytes;
}

/** A fresh random key, base64. */
export const generateKey = (): string => randomBytes(KEY_BYTES).toString('base64');

/** Builds the keyring from the current key and, during a rotation, the previous one. */
export function createKeyring(current: Buffer, previous?: Buffer): Keyring {
  const now = toKey(current);
  const old = previous ? toKey(previous) : undefined;
  const byId = new Map<string, Key>([[now.id, now]]);
  if (old && old.id !== now.id) byId.set(old.id, old);
  const checkValueOf = (key: Key) => derive(key.bytes, 'svc key check', 16).toString('base64url');

  const decrypt = (ciphertext: string): string => {
    const id = keyIdOf(ciphertext);
    if (id === undefined) throw new Error('not an encrypted value');
    const key = byId.get(id);
    if (!key) throw new Error(`a value was encrypted with a key that is not configured (key id ${id}); set that key as SVC_SECRET_KEY_PREVIOUS`);
    const body = Buffer.from(ciphertext.slice(CIPHERTEXT_PREFIX.length + id.length + 1), 'base64url');
    if (body.length < IV_BYTES + TAG_BYTES) throw new Error('the encrypted value is truncated');
    const decipher = createDecipheriv('aes-256-gcm', key.bytes, body.subarray(0, IV_BYTES));
    decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
    return Buffer.concat([decipher.update(body.subarray(IV_BYTES, body.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  };

  return {
    currentId: now.id,
    previousId: old?.id,
    encrypt(plaintext) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', now.bytes, iv);
      const body = Buffer.concat([iv, cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `${CIPHERTEXT_PREFIX}${now.id}:${body.toString('base64url')}`;
    },
    decrypt,
    reveal: (stored) => (isEncrypted(stored) ? decrypt(stored) : stored),
    deriveKey: (purpose) => derive(now.bytes, `svc ${purpose}`, 32),
    checkValue: () => checkValueOf(now),
    previousCheckValue: () => (old ? checkValueOf(old) : undefined),
  };
}
