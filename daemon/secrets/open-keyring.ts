import { linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Config } from '../config/config.js';
import type { Db } from '../db/connect.js';
import type { Logger } from '../log.js';
import { readParameter, writeParameter } from '../parameters.js';
import type { Clock } from '../clock.js';
import { createKeyring, decodeKey, generateKey, type Keyring } from './keyring.js';

/** The system parameter holding the current key's check value. */
export const KEY_CHECK_PARAMETER = 'secrets.key_check';

const mismatch = () =>
  new Error(
    'the secret key does not match the one this database was encrypted with (key check failed): ' +
      'give every replica the same SVC_SECRET_KEY, and during a rotation the former key as SVC_SECRET_KEY_PREVIOUS',
  );

/** Where a SQLite database keeps its generated key: beside the database file. */
export function keyFilePath(dbUrl: string): string | undefined {
  if (!dbUrl.startsWith('sqlite:')) return undefined;
  const path = dbUrl.slice('sqlite:'.length);
  return path === ':memory:' ? undefined : join(dirname(resolve(path)), 'secret.key');
}

/** The key a SQLite daemon uses without SVC_SECRET_KEY: read from its file, or made on first start. */
function keyFromFile(path: string, logger: Logger): Buffer {
  try {
    return decodeKey(readFileSync(path, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new Error(`the secret key file ${path} is not readable as a key: ${(error as Error).message}`);
  }
  const key = generateKey();
  // Written whole to a file of its own, then linked into place: the link either appears complete
  // or fails because a second daemon starting at the same moment linked its key first, which
  // both then use.
  const draft = `${path}.${process.pid}.${Date.now()}`;
  writeFileSync(draft, `${key}\n`, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(draft, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return decodeKey(readFileSync(path, 'utf8'));
    throw error;
  } finally {
    rmSync(draft, { force: true });
  }
  logger.warn(
    { path },
    `SVC_SECRET_KEY is not set: generated a secret key in ${path} (mode 0600). It encrypts the stored secrets: back it up with the database, or set SVC_SECRET_KEY.`,
  );
  return decodeKey(key);
}

/**
 * Builds the keyring from the configuration (or, on SQLite, the key file), then compares the
 * key with the check value stored in the database, so that a replica with another key refuses
 * to start instead of writing values nobody else can read. During a rotation the stored value
 * may still be the previous key's: it is moved to the current one.
 */
export async function openKeyring(config: Config, db: Db, clock: Clock, logger: Logger): Promise<Keyring> {
  let current: Buffer;
  if (config.secrets.key) current = decodeKey(config.secrets.key);
  else if (db.kind === 'postgres') {
    throw new Error(
      'SVC_SECRET_KEY is required with PostgreSQL (32 bytes in base64, e.g. openssl rand -base64 32), the same on every replica: it encrypts the stored secrets',
    );
  } else {
    const path = keyFilePath(config.dbUrl);
    if (path) current = keyFromFile(path, logger);
    else {
      current = decodeKey(generateKey());
      logger.warn('SVC_SECRET_KEY is not set and the database is in memory: a random secret key is in use for this run');
    }
  }
  const keyring = createKeyring(current, config.secrets.previousKey ? decodeKey(config.secrets.previousKey) : undefined);

  const deps = { db, clock };
  const stored = await readParameter(deps, null, KEY_CHECK_PARAMETER);
  const check = keyring.checkValue();
  if (!stored.set) {
    try {
      await writeParameter(deps, null, KEY_CHECK_PARAMETER, check);
    } catch {
      // Another replica starting at the same moment recorded its key first: it must be this one.
      if ((await readParameter(deps, null, KEY_CHECK_PARAMETER)).value !== check) throw mismatch();
    }
  } else if (stored.value !== check) {
    if (stored.value !== undefined && stored.value === keyring.previousCheckValue()) {
      await writeParameter(deps, null, KEY_CHECK_PARAMETER, check);
      logger.warn(
        'the secret key changed (SVC_SECRET_KEY_PREVIOUS is the former one): run svc admin secrets rotate to re-encrypt the stored secrets with the new key',
      );
    } else throw mismatch();
  }
  return keyring;
}
