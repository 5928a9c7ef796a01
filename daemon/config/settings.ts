import { availableParallelism } from 'node:os';
import { PROVIDERS } from './provider-keys.js';
import * as p from './parsers.js';

/** One configuration setting: its environment variable, optional file key, type and default. */
export interface Setting<T = unknown> {
  env: string;
  /** Dotted key in the YAML configuration file, if the setting can be set there. */
  file?: string;
  /** Other names accepted for the same setting (platform names of providers). */
  aliases?: { env: string; file?: string }[];
  parser: p.Parser<T>;
  /** The default, or undefined when unset is meaningful. */
  default?: T;
  /** How the default reads in the docs when it is not a plain value. */
  defaultDoc?: string;
  doc: string;
  /** Secrets are never logged or echoed back in errors. */
  secret?: boolean;
}

const setting = <T>(s: Setting<T>): Setting<T> => s;

const argon2 = (knob: string, doc: string, def: number, min: number) =>
  setting({
    env: `SVC_AUTH_PASSWORD_ARGON2_${knob.toUpperCase()}`,
    file: `auth.password.argon2.${knob}`,
    parser: p.integer(min),
    default: def,
    doc,
  });

/** Every setting the daemon reads, in the order the docs list them. */
export const SETTINGS = {
  dbUrl: setting({
    env: 'SVC_DB_URL',
    file: 'database.url',
    parser: p.databaseUrl(),
    default: 'sqlite:./data/svc.db',
    doc: 'Database: `sqlite:<path>` (created if missing) or a PostgreSQL URL.',
  }),
  dbPreparedStatements: setting({
    env: 'SVC_DB_PREPARED_STATEMENTS',
    file: 'database.prepared_statements',
    parser: p.boolean(),
    default: true,
    doc: 'PostgreSQL: keep the reads made on every request (session, role) as named prepared statements, planned once per connection. Turn off behind a connection pooler in transaction mode that does not track them (PgBouncer before 1.21, or its `max_prepared_statements` at 0).',
  }),
  listen: setting({
    env: 'SVC_LISTEN',
    file: 'listen',
    parser: p.listenAddress(),
    default: { host: '127.0.0.1', port: 4000 },
    defaultDoc: '`127.0.0.1:4000`',
    doc: 'Address the daemon listens on.',
  }),
  baseUrl: setting({
    env: 'SVC_BASE_URL',
    file: 'base_url',
    parser: p.httpUrl(),
    default: 'http://localhost:4000',
    doc: 'Public base address of the service: links in mails, OAuth callbacks and the sign-in hand-off use it.',
  }),
  logLevel: setting({
    env: 'SVC_LOG_LEVEL',
    file: 'log_level',
    parser: p.oneOf('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'),
    default: 'info',
    doc: 'Log level.',
  }),
  logFormat: setting({
    env: 'SVC_LOG_FORMAT',
    file: 'log_format',
    parser: p.oneOf('auto', 'pretty', 'json'),
    default: 'auto',
    doc: 'Log lines on standard output: `pretty` (one readable line per event), `json` (JSON lines), or `auto`: pretty on a terminal, JSON otherwise.',
  }),
  shutdownTimeout: setting({
    env: 'SVC_SHUTDOWN_TIMEOUT',
    file: 'shutdown_timeout',
    parser: p.duration(1),
    default: 10,
    defaultDoc: '`10s`',
    doc: 'On SIGTERM or SIGINT: how long requests and check runs under way may take to finish before their connections are closed.',
  }),
  metricsListen: setting({
    env: 'SVC_METRICS_LISTEN',
    file: 'metrics.listen',
    parser: p.listenAddress(),
    defaultDoc: 'unset (no metrics endpoint)',
    doc: 'Address of a separate listener that serves Prometheus metrics at `/metrics`, e.g. `127.0.0.1:9464`. Keep it off the public network.',
  }),
  metricsCheckSeriesLimit: setting({
    env: 'SVC_METRICS_CHECK_SERIES_LIMIT',
    file: 'metrics.check_series_limit',
    parser: p.integer(0),
    default: 5000,
    doc: 'At most this many checks get `svc_check_*` series in a scrape (the first by organization and slug); `svc_check_series_dropped` counts the rest.',
  }),
  eventsMaxStreams: setting({
    env: 'SVC_EVENTS_MAX_STREAMS',
    file: 'events.max_streams',
    parser: p.integer(1),
    default: 1000,
    doc: 'Open event streams (`GET /api/v1/orgs/{org}/events`) this daemon serves at once; past it a new one gets 429.',
  }),
  eventsMaxStreamsPerMember: setting({
    env: 'SVC_EVENTS_MAX_STREAMS_PER_MEMBER',
    file: 'events.max_streams_per_member',
    parser: p.integer(1),
    default: 5,
    doc: 'Open event streams one member may have in one organization on this daemon; past it a new one gets 429.',
  }),
  smtpUrl: setting({
    env: 'SVC_SMTP_URL',
    file: 'mail.smtp_url',
    parser: p.string(),
    doc: 'SMTP server for e-mail notices, e.g. `smtp://user:pass@mail.example.com:587`. No mail is sent when unset.',
    secret: true,
  }),
  mailFrom: setting({ env: 'SVC_MAIL_FROM', file: 'mail.from', parser: p.string(), default: 'svc <no-reply@svc.local>', doc: 'Sender of e-mail notices.' }),
  adminEmail: setting({
    env: 'SVC_ADMIN_EMAIL',
    file: 'admin.email',
    parser: p.email(),
    default: 'admin@svc.local',
    doc: 'E-mail of the super admin created on first start; read only while no organization exists.',
  }),
  jwtSecret: setting({
    env: 'SVC_AUTH_JWT_SECRET',
    file: 'auth.jwt_secret',
    parser: p.string(),
    defaultDoc: 'derived from the secret key',
    doc: 'Signs session tokens (HS256). When unset the signing key is derived from `SVC_SECRET_KEY` (or the generated key file), so sessions survive a restart; set it to sign with a key of your own (32+ characters).',
    secret: true,
  }),
  sessionTtl: setting({
    env: 'SVC_AUTH_SESSION_TTL',
    file: 'auth.session_ttl',
    parser: p.duration(60),
    default: 7 * 86400,
    defaultDoc: '`7d`',
    doc: 'Session lifetime.',
  }),
  registrationEmailPattern: setting({
    env: 'SVC_AUTH_REGISTRATION_EMAIL_PATTERN',
    file: 'auth.registration_email_pattern',
    parser: p.regex(),
    defaultDoc: 'unset (anyone may register)',
    doc: 'Only e-mail addresses matching this regular expression may register.',
  }),
  loginRateLimit: setting({
    env: 'SVC_AUTH_LOGIN_RATE_LIMIT',
    file: 'auth.login_rate_limit',
    parser: p.integer(1),
    default: 10,
    doc: 'Failed sign-ins allowed per e-mail address from one client address in the rate-limit window; then 429 with Retry-After for that client only.',
  }),
  loginRateLimitPerClient: setting({
    env: 'SVC_AUTH_LOGIN_RATE_LIMIT_PER_CLIENT',
    file: 'auth.login_rate_limit_per_client',
    parser: p.integer(1),
    default: 50,
    doc: 'Failed sign-ins allowed per client address in the rate-limit window (higher than per address, as many people may share one client address).',
  }),
  loginRateWindow: setting({
    env: 'SVC_AUTH_LOGIN_RATE_WINDOW',
    file: 'auth.login_rate_window',
    parser: p.duration(1),
    default: 900,
    defaultDoc: '`15m`',
    doc: 'The window of the sign-in rate limit.',
  }),
  loginRateLimitPerAccount: setting({
    env: 'SVC_AUTH_LOGIN_RATE_LIMIT_PER_ACCOUNT',
    file: 'auth.login_rate_limit_per_account',
    parser: p.integer(1),
    default: 100,
    doc: 'Failed sign-ins allowed per e-mail address from all clients together in the rate-limit window: the slower, global back-off (one client alone is stopped by `SVC_AUTH_LOGIN_RATE_LIMIT` first).',
  }),
  registerRateLimit: setting({
    env: 'SVC_AUTH_REGISTER_RATE_LIMIT',
    file: 'auth.register_rate_limit',
    parser: p.integer(1),
    default: 20,
    doc: 'Registrations (`POST /auth/register`, answered or refused) allowed per client address per hour; then 429 with Retry-After.',
  }),
  externalSignInRateLimit: setting({
    env: 'SVC_AUTH_EXTERNAL_SIGN_IN_RATE_LIMIT',
    file: 'auth.external_sign_in_rate_limit',
    parser: p.integer(1),
    default: 60,
    doc: 'External sign-ins (and team-chat installs) started per client address in 10 minutes; then the browser lands on the sign-in page with `error=rate_limited`.',
  }),
  trustProxy: setting({
    env: 'SVC_TRUST_PROXY',
    file: 'trust_proxy',
    parser: p.trustProxy(),
    default: { kind: 'none' },
    defaultDoc: '`false` (the socket peer is the client)',
    doc: 'Proxies in front of the daemon whose `X-Forwarded-For` names the client: a hop count (`1`: one proxy, the rightmost entry is the client) or a comma-separated list of proxy addresses and networks (`10.0.0.5, 172.16.0.0/12`). Rate limits, sessions and logs use this client address; `X-Forwarded-For` is ignored otherwise.',
  }),
  passwordAlgorithm: setting({
    env: 'SVC_AUTH_PASSWORD_ALGORITHM',
    file: 'auth.password.algorithm',
    parser: p.string(),
    default: 'argon2id',
    doc: 'Password hashing algorithm: `argon2id` or `bcrypt`. Anything else fails start-up.',
  }),
  argon2Memory: argon2('memory', 'argon2id memory cost in KiB; below 8192 fails start-up.', 65536, 1),
  argon2Time: argon2('time', 'argon2id iterations.', 3, 1),
  argon2Threads: argon2('threads', 'argon2id parallelism.', 4, 1),
  argon2KeyLength: setting({
    env: 'SVC_AUTH_PASSWORD_ARGON2_KEY_LENGTH',
    file: 'auth.password.argon2.key_length',
    parser: p.integer(1),
    default: 32,
    doc: 'argon2id output length in bytes.',
  }),
  argon2SaltLength: setting({
    env: 'SVC_AUTH_PASSWORD_ARGON2_SALT_LENGTH',
    file: 'auth.password.argon2.salt_length',
    parser: p.integer(1),
    default: 16,
    doc: 'argon2id salt length in bytes.',
  }),
  bcryptCost: setting({
    env: 'SVC_AUTH_PASSWORD_BCRYPT_COST',
    file: 'auth.password.bcrypt.cost',
    parser: p.integer(),
    default: 12,
    doc: 'bcrypt cost, 10 to 31 (outside fails start-up); used only when the algorithm is `bcrypt`.',
  }),
  rehashOnLogin: setting({
    env: 'SVC_AUTH_PASSWORD_REHASH_ON_LOGIN',
    file: 'auth.password.rehash_on_login',
    parser: p.boolean(),
    default: true,
    doc: 'Re-hash a password on its next successful sign-in when its stored hash differs from the policy.',
  }),
  hashConcurrency: setting({
    env: 'SVC_AUTH_PASSWORD_HASH_CONCURRENCY',
    file: 'auth.password.hash_concurrency',
    parser: p.integer(1, 256),
    defaultDoc: 'the number of CPUs',
    doc: 'Password hashes computed at once; peak hashing memory is about this times the argon2id memory.',
  }),
  enterpriseCloudTenantId: setting({
    env: 'SVC_ENTERPRISE_CLOUD_TENANT_ID',
    file: 'auth.enterprise_cloud.tenant_id',
    aliases: [{ env: 'SVC_MICROSOFT_TENANT_ID', file: 'auth.microsoft.tenant_id' }],
    parser: p.string(),
    default: 'common',
    doc: 'Tenant of the enterprise cloud directory in its authorize/token URLs: a directory GUID, a verified domain, `common`, `organizations` or `consumers`; empty means `common`.',
  }),
  hostedMonitorApiUrl: setting({
    env: 'SVC_IMPORT_HOSTED_MONITOR_API_URL',
    file: 'import.hosted_monitor_api_url',
    parser: p.httpUrl(),
    default: 'https://uptime.betterstack.com',
    doc: 'Base URL of the hosted monitoring API that the `hosted-monitor-api` import reads.',
  }),
  hostedCheckApiUrl: setting({
    env: 'SVC_IMPORT_HOSTED_CHECK_API_URL',
    file: 'import.hosted_check_api_url',
    parser: p.httpUrl(),
    default: 'https://api.pingdom.com',
    doc: 'Base URL of the hosted check API that the `hosted-check-api` import reads when given an API token (`/api/3.1/checks` below it).',
  }),
  cronMonitorApiUrl: setting({
    env: 'SVC_IMPORT_CRON_MONITOR_API_URL',
    file: 'import.cron_monitor_api_url',
    parser: p.httpUrl(),
    default: 'https://healthchecks.io',
    doc: "Base URL of the cron monitor whose Management API the `cron-monitor-api` import reads when given an API key: a self-hosted instance's site root.",
  }),
  secretKey: setting({
    env: 'SVC_SECRET_KEY',
    file: 'secrets.key',
    parser: p.base64Key(),
    defaultDoc: 'SQLite: generated on first start into `secret.key` beside the database file; PostgreSQL: required',
    doc: 'The key (32 bytes, base64: `openssl rand -base64 32`) that encrypts stored secrets: organization secrets, notification channel settings, TOTP secrets. Without `SVC_AUTH_JWT_SECRET` the session signing key is derived from it too. The same on every replica; keep it with the database backups.',
    secret: true,
  }),
  secretKeyPrevious: setting({
    env: 'SVC_SECRET_KEY_PREVIOUS',
    file: 'secrets.key_previous',
    parser: p.base64Key(),
    defaultDoc: 'unset',
    doc: 'During a key rotation: the former `SVC_SECRET_KEY`, which still decrypts values it wrote until `svc admin secrets rotate` has re-encrypted them (docs/operations.md).',
    secret: true,
  }),
  importConversionTimeoutMs: setting({
    env: 'SVC_IMPORT_CONVERSION_TIMEOUT_MS',
    file: 'import.conversion_timeout_ms',
    parser: p.integer(50),
    default: 60_000,
    doc: 'Milliseconds an import may spend converting its input (on a worker thread, start-up included); beyond it the import answers 400 `INVALID_IMPORT_INPUT` and writes nothing.',
  }),
  importConversionMemoryMb: setting({
    env: 'SVC_IMPORT_CONVERSION_MEMORY_MB',
    file: 'import.conversion_memory_mb',
    parser: p.integer(16),
    default: 512,
    doc: "MiB of JavaScript heap an import conversion may use (its worker thread's limit); beyond it the import answers 413 `PAYLOAD_TOO_LARGE` and writes nothing.",
  }),
  nodeRole: setting({
    env: 'SVC_NODE_ROLE',
    file: 'node.role',
    parser: p.oneOf('all', 'api', 'runner'),
    default: 'all',
    doc: 'What this daemon does: `all` serves the API and runs checks, `api` serves the API only, `runner` runs checks only (and listens for nothing).',
  }),
  runnerConcurrency: setting({
    env: 'SVC_RUNNER_CONCURRENCY',
    file: 'runner.concurrency',
    parser: p.integer(1, 10_000),
    default: 256,
    doc: 'Check runs in flight at once on this daemon (claimed runs waiting for their second count too).',
  }),
  runnerBrowserConcurrency: setting({
    env: 'SVC_RUNNER_BROWSER_CONCURRENCY',
    file: 'runner.browser_concurrency',
    parser: p.integer(1, 1000),
    default: 2,
    doc: '`browser` checks running at once on this daemon (each one is a Chromium process); more wait for a slot within their own timeout, and one still waiting at its timeout is down with `timeout after … ms waiting for a browser slot (limit N at once)`.',
  }),
  runnerOrgShare: setting({
    env: 'SVC_RUNNER_ORG_SHARE',
    file: 'runner.org_share',
    parser: p.integer(1, 100),
    default: 25,
    doc: "The share of `SVC_RUNNER_CONCURRENCY` (in percent, at least one run) that one organization's runs may hold on this daemon at once, so that one organization's slow or hanging checks cannot delay another's schedule. 100: no cap of its own.",
  }),
  heartbeatPingInterval: setting({
    env: 'SVC_HEARTBEAT_PING_INTERVAL',
    file: 'runner.heartbeat_ping_interval',
    parser: p.duration(1),
    default: 1,
    defaultDoc: '`1s`',
    doc: 'A heartbeat check records at most one ping in this time; a ping sooner answers 429 `RATE_LIMITED` with Retry-After and is not recorded.',
  }),
  runnerDenyPrivate: setting({
    env: 'SVC_RUNNER_DENY_PRIVATE',
    file: 'runner.deny_private',
    parser: p.boolean(),
    default: false,
    doc: 'Also refuse loopback and private addresses as check targets, notification and SAML metadata addresses (multi-tenant deployments); a `dns` check without a resolver then needs a system resolver the policy allows. Link-local, cloud metadata, multicast and reserved addresses are always refused.',
  }),
  runnerAllow: setting({
    env: 'SVC_RUNNER_ALLOW',
    file: 'runner.allow',
    parser: p.networks(),
    doc: 'When set, the only addresses and networks (`203.0.113.0/24, 2001:db8::/32`) checks may connect to (scheduled runs, test runs, the RDAP servers of `domain` checks, the resolver of a `dns` check); every other refusal still applies inside them. Notifications, SAML metadata addresses and sign-in providers are not bound by it. Unset: anywhere the other rules allow.',
  }),
  runnerExpressionTimeoutMs: setting({
    env: 'SVC_RUNNER_EXPRESSION_TIMEOUT_MS',
    file: 'runner.expression_timeout_ms',
    parser: p.integer(10, 60_000),
    default: 1000,
    doc: "Milliseconds a check's JSON queries (JSONata, their regular expressions included) may run on their worker thread per run; beyond it the worker is stopped and the run fails saying the query took too long (the check's own timeout applies too).",
  }),
  runnerExpressionWorkers: setting({
    env: 'SVC_RUNNER_EXPRESSION_WORKERS',
    file: 'runner.expression_workers',
    parser: p.integer(1, 64),
    default: 2,
    doc: 'Worker threads that evaluate JSON queries of check runs, off the event loop; runs beyond them wait their turn.',
  }),
  runnerProbeThreads: setting({
    env: 'SVC_RUNNER_PROBE_THREADS',
    file: 'runner.probe_threads',
    parser: p.integer(0, 64),
    // One thread where there is a second core: it takes the socket work of a run off the daemon's thread (docs/monitoring.md, "Probe threads").
    default: availableParallelism() > 1 ? 1 : 0,
    defaultDoc: '`1` with two or more cores, else `0`',
    doc: "Worker threads that run HTTP and TCP checks (those without JSON queries) beside the daemon's thread, so one runner uses more than one core; with `0` every run is on the daemon's thread.",
  }),
  runnerLease: setting({
    env: 'SVC_RUNNER_LEASE',
    file: 'runner.lease',
    parser: p.duration(1),
    default: 30,
    defaultDoc: '`30s`',
    doc: "How long a claimed run is reserved for its runner beyond the check's timeout; when a runner dies, another takes its runs over once this has passed.",
  }),
  runnerDryRun: setting({
    env: 'SVC_RUNNER_DRY_RUN',
    file: 'runner.dry_run',
    parser: p.boolean(),
    default: false,
    doc: 'For benchmarks of the coordination only (`npm run bench -- runner --only=coordinator`): every scheduled run is recorded `up` without probing its target, so that claims and result writes are all that is measured. Never set it where checks matter: nothing is monitored. The daemon logs a warning when it is set.',
  }),
  runnerResultBuffer: setting({
    env: 'SVC_RUNNER_RESULT_BUFFER',
    file: 'runner.result_buffer',
    parser: p.integer(100, 10_000_000),
    default: 100_000,
    doc: 'Check results kept in memory while the database cannot be written (down, disk full), written in order when it can be again; past this many the oldest are given up, counted in `svc_runner_results_given_up_total` and logged.',
  }),
  resultsRetention: setting({
    env: 'SVC_RESULTS_RETENTION',
    file: 'runner.results_retention',
    parser: p.duration(3600),
    default: 7 * 86400,
    defaultDoc: '`7d`',
    doc: 'How long raw check results are kept; hourly aggregates are kept 400 days.',
  }),
  ...providerSettings(),
  ...providerEndpointSettings(),
  ...oidcProviderSettings(),
  orgsPerUserLimit: setting({
    env: 'SVC_ORGS_PER_USER_LIMIT',
    file: 'organizations.per_user_limit',
    parser: p.integer(0),
    default: 10,
    doc: 'Organizations one account may own at once; `POST /orgs` beyond it answers 409 `ORGANIZATION_LIMIT_REACHED`. 0: no limit. Super admins are not limited. Each organization can hold a registration pattern that every sign-up is matched against, so this also bounds that work.',
  }),
  checksPerOrgLimit: setting({
    env: 'SVC_CHECKS_PER_ORG_LIMIT',
    file: 'organizations.checks_limit',
    parser: p.integer(0),
    default: 1000,
    doc: 'Checks one organization may hold; a create, import or `svc checks apply` that would go beyond it answers 409 `CHECK_LIMIT_REACHED` and writes nothing. 0: no limit.',
  }),
  rdapBootstrapUrl: setting({
    env: 'SVC_RDAP_BOOTSTRAP_URL',
    file: 'probes.rdap_bootstrap_url',
    parser: p.httpUrl(),
    default: 'https://data.iana.org/rdap/dns.json',
    doc: "The RDAP bootstrap file (RFC 9224) that `domain` checks read to find each top-level domain's registration data server; read once a day. Point it at a mirror where the daemon cannot reach IANA.",
  }),
  statusPageRateLimit: setting({
    env: 'SVC_STATUS_PAGE_RATE_LIMIT',
    file: 'status_pages.rate_limit',
    parser: p.integer(1),
    default: 600,
    doc: 'Requests per client address per minute to the public status pages, their JSON, feeds and badges (all together); then 429 with Retry-After.',
  }),
  notifyTestRateLimit: setting({
    env: 'SVC_NOTIFY_TEST_RATE_LIMIT',
    file: 'notify.test_rate_limit',
    parser: p.integer(1),
    default: 10,
    doc: "Test messages (`POST /orgs/{org}/notification-channels/{uid}/test`) one organization may send per hour, all channels together; then 429 `RATE_LIMITED` with Retry-After. An e-mail channel's test goes only to addresses of the organization's members.",
  }),
  notifyTimeout: setting({
    env: 'SVC_NOTIFY_TIMEOUT',
    file: 'notify.timeout',
    parser: p.duration(1),
    default: 10,
    defaultDoc: '`10s`',
    doc: 'How long one notification delivery (connect, send, answer) may take before it counts as failed and is retried.',
  }),
  notifyRetryFor: setting({
    env: 'SVC_NOTIFY_RETRY_FOR',
    file: 'notify.retry_for',
    parser: p.duration(60),
    default: 86400,
    defaultDoc: '`24h`',
    doc: 'How long a notification that fails is retried (exponential back-off from 10 s up to 1 h between attempts) before it is given up.',
  }),
  notifyLease: setting({
    env: 'SVC_NOTIFY_LEASE',
    file: 'notify.lease',
    parser: p.duration(1),
    default: 60,
    defaultDoc: '`60s`',
    doc: 'How long a daemon holds a notification it is delivering; a daemon that dies mid-delivery gives it back after this. Keep it above `SVC_NOTIFY_TIMEOUT`.',
  }),
  notifyPollInterval: setting({
    env: 'SVC_NOTIFY_POLL_INTERVAL',
    file: 'notify.poll_interval',
    parser: p.duration(1),
    default: 1,
    defaultDoc: '`1s`',
    doc: 'How often an idle daemon looks for notifications that are due. Those it queues itself go out as they commit; this is how soon other daemons sharing the database find them, and how soon a retry goes.',
  }),
  notifySlackApiUrl: setting({
    env: 'SVC_NOTIFY_SLACK_API_URL',
    file: 'notify.slack_api_url',
    parser: p.httpUrl(),
    default: 'https://slack.com/api',
    doc: 'Base URL of the Slack Web API (`chat.postMessage`, for channels with a bot token).',
  }),
  notifyTelegramApiUrl: setting({
    env: 'SVC_NOTIFY_TELEGRAM_API_URL',
    file: 'notify.telegram_api_url',
    parser: p.httpUrl(),
    default: 'https://api.telegram.org',
    doc: 'Base URL of the Telegram Bot API.',
  }),
  notifyPagerdutyApiUrl: setting({
    env: 'SVC_NOTIFY_PAGERDUTY_API_URL',
    file: 'notify.pagerduty_api_url',
    parser: p.httpUrl(),
    default: 'https://events.pagerduty.com',
    doc: 'Base URL of the PagerDuty Events API v2.',
  }),
  notifyOpsgenieApiUrl: setting({
    env: 'SVC_NOTIFY_OPSGENIE_API_URL',
    file: 'notify.opsgenie_api_url',
    parser: p.httpUrl(),
    default: 'https://api.opsgenie.com',
    doc: 'Base URL of the Opsgenie Alert API (`https://api.eu.opsgenie.com` for the EU instance).',
  }),
  notifyNtfyUrl: setting({
    env: 'SVC_NOTIFY_NTFY_URL',
    file: 'notify.ntfy_url',
    parser: p.httpUrl(),
    default: 'https://ntfy.sh',
    doc: 'ntfy server used by ntfy channels that name no server of their own.',
  }),
  notifyPushoverApiUrl: setting({
    env: 'SVC_NOTIFY_PUSHOVER_API_URL',
    file: 'notify.pushover_api_url',
    parser: p.httpUrl(),
    default: 'https://api.pushover.net',
    doc: 'Base URL of the Pushover message API.',
  }),
  ...ldapSettings(),
} satisfies Record<string, Setting<any>>;

/** Client id and secret of each external provider, under its key and its platform name. */
function providerSettings(): Record<string, Setting<string>> {
  const out: Record<string, Setting<string>> = {};
  for (const { key, alias, displayName } of PROVIDERS) {
    for (const [field, secret] of [
      ['client_id', false],
      ['client_secret', true],
    ] as const) {
      out[`provider.${key}.${field}`] = setting({
        env: `SVC_${key.toUpperCase()}_${field.toUpperCase()}`,
        file: `auth.${key}.${field}`,
        aliases: [{ env: `SVC_${alias.toUpperCase()}_${field.toUpperCase()}`, file: `auth.${alias}.${field}` }],
        parser: p.string(),
        doc: `OAuth client ${field === 'client_id' ? 'id' : 'secret'} of the ${displayName} sign-in (\`${key}\`); setting both id and secret enables it.`,
        secret,
      });
    }
  }
  return out;
}

/** The endpoint overrides a provider has, each with what it moves (API.md). */
export function providerEndpointFields(key: string): [field: string, what: string][] {
  const fields: [string, string][] = [];
  if (key === 'code_host_b') fields.push(['base_url', 'base URL of a self-hosted instance, moving all its endpoints at once']);
  fields.push(['authorize_url', 'authorization endpoint'], ['token_url', 'token endpoint'], ['userinfo_url', 'user-info endpoint']);
  // The OpenID Connect kinds verify ID tokens.
  if (['search_portal', 'code_host_b', 'enterprise_cloud', 'team_chat'].includes(key))
    fields.push(['issuer', 'expected issuer of its ID tokens'], ['jwks_url', 'key set (JWKS) that signs its ID tokens']);
  if (key === 'code_host_a') fields.push(['emails_url', "list of the account's e-mail addresses"]);
  if (key === 'team_chat')
    fields.push(['install_authorize_url', 'authorization endpoint of the app install'], ['install_token_url', 'token endpoint of the app install']);
  return fields;
}

/** Endpoint overrides of every provider, under its key and its platform name. */
function providerEndpointSettings(): Record<string, Setting<string>> {
  const out: Record<string, Setting<string>> = {};
  for (const { key, alias, displayName } of PROVIDERS) {
    for (const [field, what] of providerEndpointFields(key)) {
      const placeholder =
        key !== 'enterprise_cloud'
          ? ''
          : field === 'issuer'
            ? ' `{tenantid}` stands for the `tid` claim of the token.'
            : ' `{tenant}` stands for the configured tenant.';
      out[`provider.${key}.${field}`] = setting({
        env: `SVC_${key.toUpperCase()}_${field.toUpperCase()}`,
        file: `auth.${key}.${field}`,
        aliases: [{ env: `SVC_${alias.toUpperCase()}_${field.toUpperCase()}`, file: `auth.${alias}.${field}` }],
        parser: p.httpUrl(),
        defaultDoc: field === 'base_url' ? '`https://gitlab.com`' : `${displayName}'s own`,
        doc: `Moves the ${displayName} sign-in's (\`${key}\`) ${what}.${placeholder}`,
      });
    }
  }
  return out;
}

/** The generic OpenID Connect provider (`oidc`): Keycloak, Authentik, Okta, Dex and the like. */
function oidcProviderSettings(): Record<string, Setting<string>> {
  return {
    'provider.oidc.issuer': setting({
      env: 'SVC_OIDC_ISSUER',
      file: 'auth.oidc.issuer',
      parser: p.httpUrl(),
      doc: 'Issuer of a generic OpenID Connect provider (`oidc`); its endpoints come from `{issuer}/.well-known/openid-configuration`. Issuer, client id and secret together enable it.',
    }),
    'provider.oidc.client_id': setting({
      env: 'SVC_OIDC_CLIENT_ID',
      file: 'auth.oidc.client_id',
      parser: p.string(),
      doc: 'OAuth client id at the generic OpenID Connect provider (`oidc`).',
    }),
    'provider.oidc.client_secret': setting({
      env: 'SVC_OIDC_CLIENT_SECRET',
      file: 'auth.oidc.client_secret',
      parser: p.string(),
      doc: 'OAuth client secret at the generic OpenID Connect provider (`oidc`).',
      secret: true,
    }),
    'provider.oidc.display_name': setting({
      env: 'SVC_OIDC_DISPLAY_NAME',
      file: 'auth.oidc.display_name',
      parser: p.string(),
      default: 'Single sign-on',
      doc: 'Name of the generic OpenID Connect provider on the sign-in page.',
    }),
  };
}

/** The LDAP directory that `POST /auth/login` falls back to for addresses without a local password. */
function ldapSettings() {
  return {
    ldapUrl: setting({
      env: 'SVC_LDAP_URL',
      file: 'auth.ldap.url',
      parser: p.string(),
      doc: 'LDAP directory for sign-in: `ldaps://host:636`, or `ldap://host:389` with `SVC_LDAP_STARTTLS`. Addresses without a local password are checked against it. Unset: no LDAP sign-in.',
    }),
    ldapBindDn: setting({
      env: 'SVC_LDAP_BIND_DN',
      file: 'auth.ldap.bind_dn',
      parser: p.string(),
      doc: 'DN of the service account that searches the directory for users and groups; unset: anonymous search.',
    }),
    ldapBindPassword: setting({
      env: 'SVC_LDAP_BIND_PASSWORD',
      file: 'auth.ldap.bind_password',
      parser: p.string(),
      doc: 'Password of the service account (`SVC_LDAP_BIND_DN`).',
      secret: true,
    }),
    ldapUserBase: setting({
      env: 'SVC_LDAP_USER_BASE',
      file: 'auth.ldap.user_base',
      parser: p.string(),
      doc: 'Base DN under which users are searched, e.g. `ou=people,dc=example,dc=com`; required with `SVC_LDAP_URL`.',
    }),
    ldapUserFilter: setting({
      env: 'SVC_LDAP_USER_FILTER',
      file: 'auth.ldap.user_filter',
      parser: p.string(),
      default: '(mail={email})',
      doc: 'Filter that finds the one user of an e-mail address; `{email}` is replaced by the address, escaped. The entry needs a `mail` attribute.',
    }),
    ldapGroupBase: setting({
      env: 'SVC_LDAP_GROUP_BASE',
      file: 'auth.ldap.group_base',
      parser: p.string(),
      defaultDoc: 'unset (groups are not read)',
      doc: 'Base DN under which the groups of a user are searched; group names (`cn`) map to roles per organization (`PUT /orgs/{org}/group-roles`).',
    }),
    ldapGroupFilter: setting({
      env: 'SVC_LDAP_GROUP_FILTER',
      file: 'auth.ldap.group_filter',
      parser: p.string(),
      default: '(member={dn})',
      doc: "Filter that finds the groups of a user; `{dn}` is replaced by the user's DN, escaped.",
    }),
    ldapStartTls: setting({
      env: 'SVC_LDAP_STARTTLS',
      file: 'auth.ldap.starttls',
      parser: p.boolean(),
      default: false,
      doc: 'Upgrade an `ldap://` connection with StartTLS before anything is sent.',
    }),
    ldapCaFile: setting({
      env: 'SVC_LDAP_CA_FILE',
      file: 'auth.ldap.ca_file',
      parser: p.string(),
      defaultDoc: "unset (the system's trusted CAs)",
      doc: "PEM file of the certificate authorities that sign the directory's TLS certificate (ldaps and StartTLS), for a directory with a private CA.",
    }),
    ldapTimeout: setting({
      env: 'SVC_LDAP_TIMEOUT',
      file: 'auth.ldap.timeout',
      parser: p.duration(1),
      default: 5,
      defaultDoc: '`5s`',
      doc: 'How long one LDAP connection or operation may take before the sign-in fails.',
    }),
  };
}

export type SettingName = keyof typeof SETTINGS;
