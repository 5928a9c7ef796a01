import type { AppCaches } from './caches.js';
import type { EgressPolicy } from '../probes/egress.js';
import type { ProbeSlots } from '../probes/run-slots.js';
import type { Clock } from './clock.js';
import type { Config } from './config/config.js';
import type { Db } from './db/connect.js';
import type { EventHub } from './events/event-hub.js';
import type { Lifecycle } from './lifecycle.js';
import type { Logger } from './log.js';
import type { Mailer } from './mail/mailer.js';
import type { Metrics } from './metrics/metrics.js';
import type { Notifier } from './notify/notifier.js';
import type { PasswordHasher } from './auth/password/index.js';
import type { PasswordPolicy, PolicyOverrides } from './auth/password/index.js';
import type { Keyring } from './secrets/keyring.js';

/** What the stored hashing overrides did at boot, for `pendingRestart` and the dashboard. */
export interface BootPolicy {
  /** The policy in force in this process. */
  effective: PasswordPolicy;
  /** The stored overrides applied at boot (empty when none, or when they were malformed). */
  applied: PolicyOverrides;
}

/** Everything the app needs, passed in explicitly: no module keeps state, so two apps in one process share nothing. */
export interface AppDeps {
  db: Db;
  config: Config;
  clock: Clock;
  hasher: PasswordHasher;
  policy: BootPolicy;
  mailer: Mailer;
  logger: Logger;
  /**
   * Outbound HTTP to the sign-in providers the operator configured (OAuth, OpenID Connect
   * discovery, key sets), through an egress policy that refuses link-local, metadata and
   * non-unicast addresses (probes/egress-fetch.ts).
   */
  fetch: typeof fetch;
  /** What the app keeps between requests (verified tokens, discovery documents). */
  caches: AppCaches;
  /** Prometheus series of this daemon. */
  metrics: Metrics;
  /** Draining state and requests under way. */
  lifecycle: Lifecycle;
  /** Encrypts what must be read back (TOTP secrets, channel settings, organization secrets). */
  keyring: Keyring;
  /** Where checks may connect: the deny rules and SVC_RUNNER_ALLOW. */
  egress: EgressPolicy;
  /** How many checks of a bounded type (browser) run at once in this process: shared by the runner and runs now. */
  probeSlots: ProbeSlots;
  /** Where the daemon may connect for members besides checks (notifications, SAML metadata): the deny rules. */
  memberEgress: EgressPolicy;
  /** Delivers notifications to channels (the outbox dispatcher and the channel test). */
  notifier: Notifier;
  /** The open event streams of this daemon and the poller that feeds them from the stored rows. */
  events: EventHub;
}
