import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from './app.js';
import { resolveBootPolicy } from './auth/boot-policy.js';
import { bootstrapFirstStart, BUILT_IN_ADMIN_PASSWORD } from './auth/bootstrap.js';
import { effectiveTenant } from './auth/oauth/registry.js';
import { createPasswordHasher } from './auth/password/index.js';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config/config.js';
import { migrate, openDatabase } from './db/connect.js';
import type { AppDeps } from './deps.js';
import { createLogger, type Logger } from './log.js';
import { createMailer } from './mail/mailer.js';

/** A running daemon. */
export interface RunningDaemon {
  url: string;
  /** Set on the first start of an empty database: the super admin that was created. */
  createdAdmin?: { email: string; password: string };
  deps: AppDeps;
  server: Server;
  close(): Promise<void>;
}

export interface StartOptions {
  clock?: Clock;
  logger?: Logger;
  fetch?: typeof fetch;
}

/**
 * Opens the database, migrates it, resolves the hashing policy (stored overrides on top of the
 * configuration), creates the first admin on an empty database, and listens.
 */
export async function startDaemon(config: Config, options: StartOptions = {}): Promise<RunningDaemon> {
  const logger = options.logger ?? createLogger(config.logLevel);
  for (const warning of config.warnings) logger.warn(warning);
  if (config.auth.jwtSecretGenerated) {
    logger.warn('SVC_AUTH_JWT_SECRET is not set: a random secret is in use, so every restart signs everyone out. Set it in production.');
  }
  const db = openDatabase(config.dbUrl, { preparedStatements: config.dbPreparedStatements });
  try {
    await migrate(db);
    const policy = await resolveBootPolicy(db, config, logger);
    const clock = options.clock ?? systemClock;
    const hasher = createPasswordHasher(policy.effective, { concurrency: config.auth.hashConcurrency });
    const mailer = createMailer(config.mail.smtpUrl, config.mail.from, logger);
    const deps: AppDeps = { db, config, clock, hasher, policy, mailer, logger, fetch: options.fetch ?? fetch };

    // Stored sign-in overrides take effect at start-up, never in the middle of a run.
    await effectiveTenant(deps);

    const adminEmail = await bootstrapFirstStart(deps);
    if (adminEmail) {
      logger.warn(
        { email: adminEmail },
        `first start: created organization "default" and super admin ${adminEmail} with password "${BUILT_IN_ADMIN_PASSWORD}"; it must be changed at first sign-in`,
      );
    }

    const app = createApp(deps);
    const server = app.listen(config.listen.port, config.listen.host);
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
    });
    const address = server.address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    const url = `http://${host}:${address.port}`;
    logger.info({ url, database: db.kind }, `svc daemon listening on ${url}`);
    return {
      url,
      deps,
      server,
      createdAdmin: adminEmail ? { email: adminEmail, password: BUILT_IN_ADMIN_PASSWORD } : undefined,
      async close() {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await hasher.close();
        mailer.close();
        await db.close();
      },
    };
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  }
}
