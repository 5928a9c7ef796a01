import type { Clock } from './clock.js';
import type { Config } from './config/config.js';
import type { Db } from './db/connect.js';
import type { Logger } from './log.js';
import type { Mailer } from './mail/mailer.js';
import type { PasswordHasher } from './auth/password/index.js';
import type { PasswordPolicy, PolicyOverrides } from './auth/password/index.js';

/** What the stored hashing overrides did at boot, for `pendingRestart` and the dashboard. */
export interface BootPolicy {
  /** The policy in force in this process. */
  effective: PasswordPolicy;
  /** The stored overrides applied at boot (empty when none, or when they were malformed). */
  applied: PolicyOverrides;
}

/** Everything the app needs, passed in explicitly (ARCHITECTURE.md rule 5). */
export interface AppDeps {
  db: Db;
  config: Config;
  clock: Clock;
  hasher: PasswordHasher;
  policy: BootPolicy;
  mailer: Mailer;
  logger: Logger;
  /** Outbound HTTP (import adapters, OAuth); tests may point it at local servers. */
  fetch: typeof fetch;
}
