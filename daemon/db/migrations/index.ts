import type { Migration } from 'kysely';
import * as foundation from './001-foundation.js';
import * as personalTokens from './002-personal-tokens.js';
import * as accessControl from './003-access-control.js';
import * as monitoring from './004-monitoring.js';
import * as externalSignIn from './005-external-sign-in.js';
import * as passwordReset from './006-password-reset.js';

/** Every migration, in order. One set serves SQLite and PostgreSQL. */
export const MIGRATIONS: Record<string, Migration> = {
  '001-foundation': foundation,
  '002-personal-tokens': personalTokens,
  '003-access-control': accessControl,
  '004-monitoring': monitoring,
  '005-external-sign-in': externalSignIn,
  '006-password-reset': passwordReset,
};
