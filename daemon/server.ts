import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { createApp } from './app.js';
import { resolveBootPolicy } from './auth/boot-policy.js';
import { bootstrapFirstStart, BUILT_IN_ADMIN_PASSWORD } from './accounts/bootstrap.js';
import { effectiveTenant } from './auth/oauth/registry.js';
import { createPasswordHasher } from './auth/password/index.js';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config/config.js';
import { migrate, openDatabase } from './db/connect.js';
import type { AppDeps } from './deps.js';
import { Lifecycle } from './lifecycle.js';
import { EventHub } from './events/event-hub.js';
import { createLogger, type Logger } from './log.js';
import { createMailer } from './mail/mailer.js';
import { closeAppCaches, createAppCaches } from './caches.js';
import { createMetrics } from './metrics/metrics.js';
import { startMetricsServer } from './metrics/metrics-server.js';
import { timedHasher } from './metrics/timed-hasher.js';
import { warnOfUnverifiedPatternJoins } from './orgs/email-pattern.js';
import { openKeyring } from './secrets/open-keyring.js';
import { sealAtRest } from './secrets/seal-at-rest.js';
import { createEgressPolicy, type EgressPolicy } from '../probes/egress.js';
import { createRunSlots } from '../probes/run-slots.js';
import { egressFetch } from '../probes/egress-fetch.js';
import { Runner } from './runner/runner.js';
import { ProbeThreads } from './runner/probe-threads.js';
import { startDispatcher } from './notify/dispatcher.js';
import { createNotifier } from './notify/notifier.js';
import { createMailSender } from './notify/mail-sender.js';
import { startSubscriberMailer } from './status-pages/subscribers/subscriber-mailer.js';

/** A running daemon. */
export interface RunningDaemon {
  url: string;
  /** Set on the first start of an empty database: the super admin that was created. */
  createdAdmin?: { email: string; password: string };
  deps: AppDeps;
  /** Absent on a `runner` node, which serves no HTTP. */
  server?: Server;
  /** Absent on an `api` node, which runs no checks. */
  runner?: Runner;
  /** Where Prometheus metrics are served, when SVC_METRICS_LISTEN is set. */
  metricsUrl?: string;
  /** Drains: stops accepting, lets requests and runs under way finish (up to SVC_SHUTDOWN_TIMEOUT), then closes. */
  close(): Promise<void>;
}

export interface StartOptions {
  clock?: Clock;
  logger?: Logger;
  /** Where notifications may connect; by default the policy of SVC_RUNNER_DENY_PRIVATE. */
  egress?: EgressPolicy;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** How long a draining daemon keeps its port open for clients moving off idle keep-alive connections. */
const LISTEN_GRACE_MS = 5000;

/** Resolves once the server has no connection left, or after `graceMs`. */
async function connectionsClosed(server: Server, graceMs: number): Promise<void> {
  const count = () => new Promise<number>((resolve) => server.getConnections((error, n) => resolve(error ? 0 : n)));
  const until = Date.now() + graceMs;
  while (Date.now() < until && (await count()) > 0) await delay(20);
}

// Until the app is ready, every request gets this: the port is bound first, so that a port in use
// fails start-up before anything is written to the database.
const starting: Handler = (_req, res) => {
  res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' });
  res.end(JSON.stringify({ error: { code: 'UNAVAILABLE', message: 'The daemon is starting.' } }));
};

/** Binds the API port, or fails with a message naming the address. */
async function bind(config: Config, handle: () => Handler): Promise<Server> {
  const server = createServer((req, res) => handle()(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', (error: NodeJS.ErrnoException) => {
      const where = `${config.listen.host}:${config.listen.port}`;
      reject(new Error(error.code === 'EADDRINUSE' ? `${where} is already in use (SVC_LISTEN)` : `cannot listen on ${where}: ${error.code ?? error.message}`));
    });
    server.listen(config.listen.port, config.listen.host);
  });
  return server;
}

/**
 * Binds the port, opens the database, migrates it, resolves the hashing policy (stored overrides
 * on top of the configuration), creates the first admin on an empty database, and serves.
 */
export async function startDaemon(config: Config, options: StartOptions = {}): Promise<RunningDaemon> {
  const logger = options.logger ?? createLogger(config.logLevel, undefined, { format: config.logFormat, colour: config.logColour });
  for (const warning of config.warnings) logger.warn(warning);
  let handler: Handler = starting;
  // A runner node serves no HTTP; the others bind their port before touching the database.
  const server = config.runner.role === 'runner' ? undefined : await bind(config, () => handler);
  let db;
  try {
    db = openDatabase(config.dbUrl, { preparedStatements: config.dbPreparedStatements });
  } catch (error) {
    server?.close();
    throw error;
  }
  try {
    await migrate(db);
    const clock = options.clock ?? systemClock;
    const keyring = await openKeyring(config, db, clock, logger);
    // Values stored before they were encrypted (a migration cannot reach the key) are sealed now.
    const sealed = await sealAtRest(db, keyring, 'plaintext');
    if (sealed > 0) logger.info({ count: sealed }, `encrypted ${sealed} stored secrets that were in clear`);
    if (config.auth.jwtSecretGenerated) {
      // Derived rather than random, so a restart keeps everyone signed in.
      config = { ...config, auth: { ...config.auth, jwtSecret: keyring.deriveKey('session signing').toString('base64url') } };
    }
    const policy = await resolveBootPolicy(db, config, logger);
    const metrics = createMetrics(db, { checkSeriesLimit: config.metricsCheckSeriesLimit });
    const hasher = timedHasher(createPasswordHasher(policy.effective, { concurrency: config.auth.hashConcurrency }), metrics);
    const mailer = createMailer(config.mail.smtpUrl, config.mail.from, logger);
    if (!config.mail.smtpUrl) logger.info('e-mail is off: no SMTP server is configured (SVC_SMTP_URL), so no e-mail notification or notice is sent');
    const lifecycle = new Lifecycle();
    // Checks may be held to SVC_RUNNER_ALLOW; what else the daemon fetches for members
    // (notifications, SAML metadata) reaches services anywhere the deny rules allow.
    const egress = options.egress ?? createEgressPolicy({ denyPrivate: config.runner.denyPrivate, allow: config.runner.allow });
    const memberEgress = options.egress ?? createEgressPolicy({ denyPrivate: config.runner.denyPrivate });
    const notifier = createNotifier(config, memberEgress, metrics);
    // Sign-in providers are the operator's to configure and often live on the private network:
    // their requests are refused link-local, metadata and non-unicast addresses only.
    const providerEgress = createEgressPolicy({ denyPrivate: false });
    const probeSlots = { browser: createRunSlots(config.runner.browserConcurrency) };
    const deps: AppDeps = {
      db,
      config,
      clock,
      hasher,
      policy,
      mailer,
      logger,
      fetch: egressFetch(providerEgress),
      metrics,
      lifecycle,
      keyring,
      egress,
      memberEgress,
      probeSlots,
      notifier,
      events: new EventHub(db.kysely, clock, logger, { ...config.events, pollMs: 500, heartbeatMs: 15_000 }),
      caches: createAppCaches({ rdapBootstrapUrl: config.probes.rdapBootstrapUrl, runner: config.runner }),
    };

    // Stored sign-in overrides take effect at start-up, never in the middle of a run.
    await effectiveTenant(deps);

    const adminEmail = await bootstrapFirstStart(deps);
    if (adminEmail) {
      logger.warn(
        { email: adminEmail },
        `first start: created organization "default" and super admin ${adminEmail} with password "${BUILT_IN_ADMIN_PASSWORD}"; it must be changed at first sign-in`,
      );
    }

    await warnOfUnverifiedPatternJoins(deps);

    // Probe threads run with the policy made from the settings: an egress policy passed in (tests) keeps every run here.
    const probeThreads =
      config.runner.role !== 'api' && config.runner.probeThreads > 0 && !options.egress
        ? new ProbeThreads({ threads: config.runner.probeThreads, egress: { denyPrivate: config.runner.denyPrivate, allow: config.runner.allow } })
        : undefined;
    const runner =
      config.runner.role === 'api'
        ? undefined
        : new Runner({
            db,
            clock,
            logger,
            config: config.runner,
            egress,
            probeSlots,
            keyring,
            metrics,
            probeCaches: deps.caches.probes,
            jsonQueries: deps.caches.jsonQueries.evaluate,
            writeHealth: deps.caches.writeHealth,
            probeThreads,
          });
    const metricsServer = config.metricsListen ? await startMetricsServer(metrics, config.metricsListen) : undefined;
    handler = createApp(deps).callback();
    // Notifications go out from every node, whatever its role: the outbox is shared and leased.
    const dispatcher = startDispatcher(deps);
    // Status-page subscribers' mail has its own outbox, shared and leased the same way.
    const subscriberMail = createMailSender(config.mail.smtpUrl, config.mail.from);
    const subscriberMailer = startSubscriberMailer({ db, clock, config, logger, sender: subscriberMail });
    const url = server ? addressUrl(server.address() as AddressInfo) : '';
    const metricsUrl = metricsServer ? `${addressUrl(metricsServer.address() as AddressInfo)}/metrics` : undefined;
    if (server) logger.info({ url, database: db.kind, ...(metricsUrl ? { metrics: metricsUrl } : {}) }, `svc daemon listening on ${url}`);
    if (runner) {
      probeThreads?.start();
      runner.start();
      logger.info(
        { owner: runner.owner, concurrency: config.runner.concurrency, probeThreads: probeThreads ? config.runner.probeThreads : 0 },
        'runner started',
      );
      if (config.runner.dryRun) logger.warn('SVC_RUNNER_DRY_RUN is set: no check is probed, every run is recorded up (benchmarks only)');
    }

    let closing: Promise<void> | undefined;
    const drainAndClose = async () => {
      lifecycle.draining = true;
      // Event streams never end by themselves: they close now, and their clients reconnect elsewhere.
      deps.events.close();
      const deadline = delay(config.shutdownTimeoutSeconds * 1000, false, { ref: false });
      // Idle keep-alive connections are closed while the port still listens: a client that sends
      // its next request finds the connection closed and opens a new one, which is answered with
      // `Connection: close`, instead of a reset. The port closes once every connection is gone
      // (answered and closed), or after a short grace under steady traffic.
      if (server) {
        server.closeIdleConnections();
        await connectionsClosed(server, Math.min(LISTEN_GRACE_MS, config.shutdownTimeoutSeconds * 1000));
      }
      server?.close();
      server?.closeIdleConnections();
      // Runs in flight finish and are written, unstarted claims go back; requests under way finish.
      const finished = await Promise.race([Promise.all([lifecycle.idle(), runner?.stop()]).then(() => true), deadline]);
      if (!finished) logger.warn(`shutdown: requests and runs still under way after ${config.shutdownTimeoutSeconds} s (SVC_SHUTDOWN_TIMEOUT) are cut off`);
      server?.closeAllConnections();
      await dispatcher.stop();
      await subscriberMailer.stop();
      subscriberMail.close();
      await notifier.close();
      metricsServer?.close();
      metricsServer?.closeAllConnections();
      await hasher.close();
      await closeAppCaches(deps.caches);
      await probeThreads?.close();
      mailer.close();
      await db.close();
    };
    return {
      url,
      deps,
      server,
      runner,
      metricsUrl,
      createdAdmin: adminEmail ? { email: adminEmail, password: BUILT_IN_ADMIN_PASSWORD } : undefined,
      close: () => (closing ??= drainAndClose()),
    };
  } catch (error) {
    server?.close();
    await db.close().catch(() => {});
    throw error;
  }
}

function addressUrl(address: AddressInfo): string {
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}
