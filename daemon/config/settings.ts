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
  dbUrl: setting({ env: 'SVC_DB_URL', file: 'database.url', parser: p.databaseUrl(), default: 'sqlite:./data/svc.db', doc: 'Database: `sqlite:<path>` (created if missing) or a PostgreSQL URL.' }),
  dbPreparedStatements: setting({
    env: 'SVC_DB_PREPARED_STATEMENTS',
    file: 'database.prepared_statements',
    parser: p.boolean(),
    default: true,
    doc: 'PostgreSQL: keep the reads made on every request (session, role) as named prepared statements, planned once per connection. Turn off behind a connection pooler in transaction mode that does not track them (PgBouncer before 1.21, or its `max_prepared_statements` at 0).',
  }),
  listen: setting({ env: 'SVC_LISTEN', file: 'listen', parser: p.listenAddress(), default: { host: '127.0.0.1', port: 4000 }, defaultDoc: '`127.0.0.1:4000`', doc: 'Address the daemon listens on.' }),
  baseUrl: setting({ env: 'SVC_BASE_URL', file: 'base_url', parser: p.httpUrl(), default: 'http://localhost:4000', doc: 'Public base address of the service: links in mails, OAuth callbacks and the sign-in hand-off use it.' }),
  logLevel: setting({ env: 'SVC_LOG_LEVEL', file: 'log_level', parser: p.oneOf('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'), default: 'info', doc: 'Log level (logs are JSON lines on standard output).' }),
  smtpUrl: setting({ env: 'SVC_SMTP_URL', file: 'mail.smtp_url', parser: p.string(), doc: 'SMTP server for e-mail notices, e.g. `smtp://user:pass@mail.example.com:587`. No mail is sent when unset.', secret: true }),
  mailFrom: setting({ env: 'SVC_MAIL_FROM', file: 'mail.from', parser: p.string(), default: 'svc <no-reply@svc.local>', doc: 'Sender of e-mail notices.' }),
  adminEmail: setting({ env: 'SVC_ADMIN_EMAIL', file: 'admin.email', parser: p.email(), default: 'admin@svc.local', doc: 'E-mail of the super admin created on first start; read only while no organization exists.' }),
  jwtSecret: setting({ env: 'SVC_AUTH_JWT_SECRET', file: 'auth.jwt_secret', parser: p.string(), defaultDoc: 'random, generated on each start', doc: 'Signs session tokens (HS256). When unset every restart signs everyone out: set it in production (32+ characters).', secret: true }),
  sessionTtl: setting({ env: 'SVC_AUTH_SESSION_TTL', file: 'auth.session_ttl', parser: p.duration(60), default: 7 * 86400, defaultDoc: '`7d`', doc: 'Session lifetime.' }),
  registrationEmailPattern: setting({ env: 'SVC_AUTH_REGISTRATION_EMAIL_PATTERN', file: 'auth.registration_email_pattern', parser: p.regex(), defaultDoc: 'unset (anyone may register)', doc: 'Only e-mail addresses matching this regular expression may register.' }),
  loginRateLimit: setting({ env: 'SVC_AUTH_LOGIN_RATE_LIMIT', file: 'auth.login_rate_limit', parser: p.integer(1), default: 10, doc: 'Failed sign-ins allowed per e-mail address in the rate-limit window; then 429 with Retry-After.' }),
  loginRateLimitPerClient: setting({ env: 'SVC_AUTH_LOGIN_RATE_LIMIT_PER_CLIENT', file: 'auth.login_rate_limit_per_client', parser: p.integer(1), default: 50, doc: 'Failed sign-ins allowed per client address in the rate-limit window (higher than per address, as many people may share one client address).' }),
  loginRateWindow: setting({ env: 'SVC_AUTH_LOGIN_RATE_WINDOW', file: 'auth.login_rate_window', parser: p.duration(1), default: 900, defaultDoc: '`15m`', doc: 'The window of the sign-in rate limit.' }),
  passwordAlgorithm: setting({ env: 'SVC_AUTH_PASSWORD_ALGORITHM', file: 'auth.password.algorithm', parser: p.string(), default: 'argon2id', doc: 'Password hashing algorithm: `argon2id` or `bcrypt`. Anything else fails start-up.' }),
  argon2Memory: argon2('memory', 'argon2id memory cost in KiB; below 8192 fails start-up.', 65536, 1),
  argon2Time: argon2('time', 'argon2id iterations.', 3, 1),
  argon2Threads: argon2('threads', 'argon2id parallelism.', 4, 1),
  argon2KeyLength: setting({ env: 'SVC_AUTH_PASSWORD_ARGON2_KEY_LENGTH', file: 'auth.password.argon2.key_length', parser: p.integer(1), default: 32, doc: 'argon2id output length in bytes.' }),
  argon2SaltLength: setting({ env: 'SVC_AUTH_PASSWORD_ARGON2_SALT_LENGTH', file: 'auth.password.argon2.salt_length', parser: p.integer(1), default: 16, doc: 'argon2id salt length in bytes.' }),
  bcryptCost: setting({ env: 'SVC_AUTH_PASSWORD_BCRYPT_COST', file: 'auth.password.bcrypt.cost', parser: p.integer(), default: 12, doc: 'bcrypt cost, 10 to 31 (outside fails start-up); used only when the algorithm is `bcrypt`.' }),
  rehashOnLogin: setting({ env: 'SVC_AUTH_PASSWORD_REHASH_ON_LOGIN', file: 'auth.password.rehash_on_login', parser: p.boolean(), default: true, doc: 'Re-hash a password on its next successful sign-in when its stored hash differs from the policy.' }),
  hashConcurrency: setting({ env: 'SVC_AUTH_PASSWORD_HASH_CONCURRENCY', file: 'auth.password.hash_concurrency', parser: p.integer(1, 256), defaultDoc: 'the number of CPUs', doc: 'Password hashes computed at once; peak hashing memory is about this times the argon2id memory.' }),
  enterpriseCloudTenantId: setting({ env: 'SVC_ENTERPRISE_CLOUD_TENANT_ID', file: 'auth.enterprise_cloud.tenant_id', aliases: [{ env: 'SVC_MICROSOFT_TENANT_ID', file: 'auth.microsoft.tenant_id' }], parser: p.string(), default: 'common', doc: 'Tenant of the enterprise cloud directory in its authorize/token URLs: a directory GUID, a verified domain, `common`, `organizations` or `consumers`; empty means `common`.' }),
  hostedMonitorApiUrl: setting({ env: 'SVC_IMPORT_HOSTED_MONITOR_API_URL', file: 'import.hosted_monitor_api_url', parser: p.httpUrl(), default: 'https://uptime.betterstack.com', doc: 'Base URL of the hosted monitoring API that the `hosted-monitor-api` import reads.' }),
  ...providerSettings(),
  ...providerEndpointSettings(),
  ...oidcProviderSettings(),
} satisfies Record<string, Setting<any>>;

/** Client id and secret of each external provider, under its key and its platform name. */
function providerSettings(): Record<string, Setting<string>> {
  const out: Record<string, Setting<string>> = {};
  for (const { key, alias, displayName } of PROVIDERS) {
    for (const [field, secret] of [['client_id', false], ['client_secret', true]] as const) {
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
  if (['search_portal', 'code_host_b', 'enterprise_cloud', 'team_chat'].includes(key)) fields.push(['issuer', 'expected issuer of its ID tokens'], ['jwks_url', 'key set (JWKS) that signs its ID tokens']);
  if (key === 'code_host_a') fields.push(['emails_url', "list of the account's e-mail addresses"]);
  if (key === 'team_chat') fields.push(['install_authorize_url', 'authorization endpoint of the app install'], ['install_token_url', 'token endpoint of the app install']);
  return fields;
}

/** Endpoint overrides of every provider, under its key and its platform name. */
function providerEndpointSettings(): Record<string, Setting<string>> {
  const out: Record<string, Setting<string>> = {};
  for (const { key, alias, displayName } of PROVIDERS) {
    for (const [field, what] of providerEndpointFields(key)) {
      const placeholder =
        key !== 'enterprise_cloud' ? '' : field === 'issuer' ? ' `{tenantid}` stands for the `tid` claim of the token.' : ' `{tenant}` stands for the configured tenant.';
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
    'provider.oidc.issuer': setting({ env: 'SVC_OIDC_ISSUER', file: 'auth.oidc.issuer', parser: p.httpUrl(), doc: 'Issuer of a generic OpenID Connect provider (`oidc`); its endpoints come from `{issuer}/.well-known/openid-configuration`. Issuer, client id and secret together enable it.' }),
    'provider.oidc.client_id': setting({ env: 'SVC_OIDC_CLIENT_ID', file: 'auth.oidc.client_id', parser: p.string(), doc: 'OAuth client id at the generic OpenID Connect provider (`oidc`).' }),
    'provider.oidc.client_secret': setting({ env: 'SVC_OIDC_CLIENT_SECRET', file: 'auth.oidc.client_secret', parser: p.string(), doc: 'OAuth client secret at the generic OpenID Connect provider (`oidc`).', secret: true }),
    'provider.oidc.display_name': setting({ env: 'SVC_OIDC_DISPLAY_NAME', file: 'auth.oidc.display_name', parser: p.string(), default: 'Single sign-on', doc: 'Name of the generic OpenID Connect provider on the sign-in page.' }),
  };
}

export type SettingName = keyof typeof SETTINGS;
