import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import type { PasswordPolicy } from '../auth/password/index.js';
import { validatePolicy } from '../auth/password/index.js';
import { ConfigError } from './config-error.js';
import { readConfigFile } from './config-file.js';
import { PROVIDERS, type ProviderKey } from './provider-keys.js';
import { providerEndpointFields, SETTINGS, type Setting, type SettingName } from './settings.js';
import { validateTenant } from './tenant.js';
import { ldapConfig, type LdapConfig } from './ldap-config.js';
import type { TrustProxy } from '../http/client-address.js';

/** The daemon's whole configuration, typed, after env > file > default resolution. */
export interface Config {
  dbUrl: string;
  dbPreparedStatements: boolean;
  listen: { host: string; port: number };
  baseUrl: string;
  logLevel: string;
  logFormat: 'auto' | 'pretty' | 'json';
  /** Colour in pretty logs on a terminal; off when NO_COLOR is set. */
  logColour: boolean;
  /** Seconds that requests and runs under way get to finish on shutdown. */
  shutdownTimeoutSeconds: number;
  /** Where Prometheus metrics are served; unset means nowhere. */
  metricsListen?: { host: string; port: number };
  metricsCheckSeriesLimit: number;
  /** Bounds of the open event streams: per daemon, and per member of an organization. */
  events: { maxStreams: number; maxStreamsPerMember: number };
  mail: { smtpUrl?: string; from: string };
  adminEmail: string;
  auth: {
    jwtSecret: string;
    /**
     * True when no secret was configured: until the daemon derives one from the keyring at
     * start-up, a random one is in use (for an app created without the keyring).
     */
    jwtSecretGenerated: boolean;
    sessionTtlSeconds: number;
    registrationEmailPattern?: string;
    /** Failed sign-ins: per account and client pair (`max`), per client, per account from all clients. */
    loginRateLimit: { max: number; maxPerClient: number; maxPerAccount: number; windowSeconds: number };
    /** Registrations per client address per hour. */
    registerRateLimit: number;
    /** External sign-ins started per client address in 10 minutes. */
    externalSignInRateLimit: number;
    password: PasswordPolicy;
    hashConcurrency: number;
    enterpriseCloudTenantId: string;
    providers: Partial<Record<ProviderKey, { clientId: string; clientSecret: string }>>;
    /** Endpoint overrides per provider, by setting field (`token_url`, `issuer`, ...): tests and self-hosted instances. */
    providerEndpoints: Partial<Record<ProviderKey, Record<string, string>>>;
    /** The generic OpenID Connect provider, enabled when issuer, client id and secret are all set. */
    oidc?: { issuer: string; clientId: string; clientSecret: string; displayName: string };
    /** The LDAP directory of password sign-in, enabled when its URL and user base are set. */
    ldap?: LdapConfig;
  };
  import: {
    hostedMonitorApiUrl: string;
    cronMonitorApiUrl: string;
    hostedCheckApiUrl: string;
    /** The time limit of one conversion's worker thread. */
    conversionTimeoutMs: number;
    /** The heap limit of one conversion's worker thread, in MiB. */
    conversionMemoryMb: number;
  };
  /** Per account: organizations owned; per organization: checks held. 0: no limit. */
  organizations: { perUserLimit: number; checksLimit: number };
  /** Public status pages: requests per client address per minute. */
  statusPages: { rateLimit: number };
  /** Notification delivery: timings (seconds) and each service's API base URL. */
  notify: {
    /** Channel test messages per organization per hour. */
    testRateLimit: number;
    timeoutSeconds: number;
    retryForSeconds: number;
    leaseSeconds: number;
    pollIntervalSeconds: number;
    apiUrls: { slack: string; telegram: string; pagerduty: string; opsgenie: string; ntfy: string; pushover: string };
  };
  /** Which proxies may name the client in `X-Forwarded-For`. */
  trustProxy: TrustProxy;
  /** The keyring's keys (base64, 32 bytes), when configured; see daemon/secrets/open-keyring.ts. */
  secrets: { key?: string; previousKey?: string };
  /** The monitoring engine (docs/monitoring.md). */
  runner: RunnerConfig;
  /** Settings of the check executors. */
  probes: { rdapBootstrapUrl: string };
  /** Non-fatal findings to log once the logger exists. */
  warnings: string[];
  /** Where the configuration file was read from, if any. */
  configFile?: string;
}

/** What this daemon does and how its runner behaves. */
export interface RunnerConfig {
  role: 'all' | 'api' | 'runner';
  concurrency: number;
  /** Browser checks running at once on this daemon. */
  browserConcurrency: number;
  /** Percent of `concurrency` one organization's runs may hold at once. */
  orgSharePercent: number;
  /** A heartbeat records at most one ping in this many seconds. */
  heartbeatPingIntervalSeconds: number;
  denyPrivate: boolean;
  /** The only networks outbound connections for members may reach (empty: no such limit). */
  allow?: string[];
  leaseSeconds: number;
  resultsRetentionSeconds: number;
  /** The time limit of one run's JSON queries on their worker thread. */
  expressionTimeoutMs: number;
  /** Worker threads evaluating JSON queries. */
  expressionWorkers: number;
  /** Worker threads running HTTP and TCP probes beside the daemon's thread (0: none). */
  probeThreads: number;
  /** Results kept in memory while the database cannot be written (SVC_RUNNER_RESULT_BUFFER). */
  resultBuffer?: number;
  /** Benchmarks of the coordination only: runs are recorded `up` without a probe (SVC_RUNNER_DRY_RUN). */
  dryRun?: boolean;
}

/** Where each field of the password policy is configured, to name it in errors. */
export const POLICY_FIELD_SETTING: Record<string, SettingName> = {
  algorithm: 'passwordAlgorithm',
  'argon2.memory': 'argon2Memory',
  'argon2.time': 'argon2Time',
  'argon2.threads': 'argon2Threads',
  'argon2.keyLength': 'argon2KeyLength',
  'argon2.saltLength': 'argon2SaltLength',
  'bcrypt.cost': 'bcryptCost',
  rehashOnLogin: 'rehashOnLogin',
};

const KNOWN_CLIENT_VARIABLES = new Set(['SVC_URL', 'SVC_TOKEN', 'SVC_ORG', 'SVC_CONFIG', 'SVC_TEST_PG_URL', 'SVC_CONFIG_DIR', 'SVC_PROFILE']);

/**
 * Reads the configuration from the environment and the YAML file. Throws a ConfigError naming
 * the variable (and file key) of the first value that is unknown or ill-typed.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const file = readConfigFile(env, cwd);
  const warnings: string[] = [];
  const fileKeys = new Map<string, SettingName>();
  const envNames = new Map<string, SettingName>();
  for (const [name, s] of Object.entries(SETTINGS) as [SettingName, Setting][]) {
    envNames.set(s.env, name);
    if (s.file) fileKeys.set(s.file, name);
    for (const alias of s.aliases ?? []) {
      envNames.set(alias.env, name);
      if (alias.file) fileKeys.set(alias.file, name);
    }
  }
  for (const key of file.values.keys()) {
    if (!fileKeys.has(key)) throw new ConfigError(`${file.path}: unknown setting "${key}" (see docs/configuration.md)`);
  }
  for (const name of Object.keys(env)) {
    if (name.startsWith('SVC_') && !envNames.has(name) && !KNOWN_CLIENT_VARIABLES.has(name)) {
      warnings.push(`${name} is not a known setting and is ignored (see docs/configuration.md)`);
    }
  }

  const get = <N extends SettingName>(name: N): (typeof SETTINGS)[N] extends Setting<infer T> ? T | undefined : never => {
    const s = SETTINGS[name] as Setting;
    const names = [s, ...(s.aliases ?? [])];
    const fromEnv = names.find((n) => env[n.env] !== undefined && env[n.env] !== '');
    const fromFile = names.find((n) => n.file && file.values.has(n.file));
    const where = fromEnv ? fromEnv.env : fromFile ? `${fromFile.file} in ${file.path}` : undefined;
    const raw = fromEnv ? env[fromEnv.env] : fromFile ? file.values.get(fromFile.file!) : undefined;
    if (raw === undefined || raw === null) return s.default as never;
    try {
      return s.parser.parse(raw) as never;
    } catch (error) {
      const shown = s.secret ? '' : `: ${(error as Error).message}`;
      throw new ConfigError(`${where}: invalid value${shown || ` (expected ${s.parser.describe})`}`);
    }
  };

  const algorithm = get('passwordAlgorithm')!;
  const password = {
    algorithm: algorithm as PasswordPolicy['algorithm'],
    argon2: {
      memory: get('argon2Memory')!,
      time: get('argon2Time')!,
      threads: get('argon2Threads')!,
      keyLength: get('argon2KeyLength')!,
      saltLength: get('argon2SaltLength')!,
    },
    bcrypt: { cost: get('bcryptCost')! },
    rehashOnLogin: get('rehashOnLogin')!,
  };
  const policyCheck = validatePolicy(password);
  const nameOf = (field: string) => {
    const s = SETTINGS[POLICY_FIELD_SETTING[field] ?? 'passwordAlgorithm'] as Setting;
    return `${s.env} (${s.file})`;
  };
  if (policyCheck.errors.length > 0) {
    const first = policyCheck.errors[0];
    throw new ConfigError(`${nameOf(first.field)}: ${first.message}`);
  }
  for (const w of policyCheck.warnings) warnings.push(`${nameOf(w.field)}: ${w.message}`);

  const tenant = get('enterpriseCloudTenantId')!;
  const tenantProblem = validateTenant(tenant);
  if (tenantProblem) throw new ConfigError(`SVC_ENTERPRISE_CLOUD_TENANT_ID: ${tenantProblem}`);

  const providers: Config['auth']['providers'] = {};
  for (const { key } of PROVIDERS) {
    const clientId = get(`provider.${key}.client_id` as SettingName) as string | undefined;
    const clientSecret = get(`provider.${key}.client_secret` as SettingName) as string | undefined;
    if (clientId && clientSecret) providers[key] = { clientId, clientSecret };
    else if (clientId || clientSecret) warnings.push(`the ${key} sign-in needs both a client id and a client secret; it stays disabled`);
  }

  const providerEndpoints: Config['auth']['providerEndpoints'] = {};
  for (const { key } of PROVIDERS) {
    const urls: Record<string, string> = {};
    for (const [field] of providerEndpointFields(key)) {
      const value = get(`provider.${key}.${field}` as SettingName) as string | undefined;
      if (value) urls[field] = value;
    }
    if (Object.keys(urls).length > 0) providerEndpoints[key] = urls;
  }
  const oidcIssuer = get('provider.oidc.issuer' as SettingName) as string | undefined;
  const oidcClientId = get('provider.oidc.client_id' as SettingName) as string | undefined;
  const oidcClientSecret = get('provider.oidc.client_secret' as SettingName) as string | undefined;
  const oidc =
    oidcIssuer && oidcClientId && oidcClientSecret
      ? { issuer: oidcIssuer, clientId: oidcClientId, clientSecret: oidcClientSecret, displayName: get('provider.oidc.display_name' as SettingName) as string }
      : undefined;
  if (!oidc && (oidcIssuer || oidcClientId || oidcClientSecret))
    warnings.push('the oidc sign-in needs SVC_OIDC_ISSUER, SVC_OIDC_CLIENT_ID and SVC_OIDC_CLIENT_SECRET; it stays disabled');

  const configuredSecret = get('jwtSecret');
  if (configuredSecret && configuredSecret.length < 32) warnings.push('SVC_AUTH_JWT_SECRET is shorter than the recommended 32 characters');
  const registrationEmailPattern = get('registrationEmailPattern');

  return {
    dbUrl: get('dbUrl')!,
    dbPreparedStatements: get('dbPreparedStatements')!,
    listen: get('listen')!,
    baseUrl: get('baseUrl')!,
    logLevel: get('logLevel')!,
    logFormat: get('logFormat') as Config['logFormat'],
    logColour: env.NO_COLOR === undefined,
    shutdownTimeoutSeconds: get('shutdownTimeout')!,
    metricsListen: get('metricsListen'),
    metricsCheckSeriesLimit: get('metricsCheckSeriesLimit')!,
    events: { maxStreams: get('eventsMaxStreams')!, maxStreamsPerMember: get('eventsMaxStreamsPerMember')! },
    mail: { smtpUrl: get('smtpUrl'), from: get('mailFrom')! },
    adminEmail: get('adminEmail')!,
    auth: {
      jwtSecret: configuredSecret ?? randomBytes(32).toString('base64url'),
      jwtSecretGenerated: !configuredSecret,
      sessionTtlSeconds: get('sessionTtl')!,
      registrationEmailPattern,
      loginRateLimit: {
        max: get('loginRateLimit')!,
        maxPerClient: get('loginRateLimitPerClient')!,
        maxPerAccount: get('loginRateLimitPerAccount')!,
        windowSeconds: get('loginRateWindow')!,
      },
      registerRateLimit: get('registerRateLimit')!,
      externalSignInRateLimit: get('externalSignInRateLimit')!,
      password,
      hashConcurrency: get('hashConcurrency') ?? availableParallelism(),
      enterpriseCloudTenantId: tenant || 'common',
      providers,
      providerEndpoints,
      oidc,
      ldap: ldapConfig(get, warnings),
    },
    import: {
      hostedMonitorApiUrl: get('hostedMonitorApiUrl')!,
      cronMonitorApiUrl: get('cronMonitorApiUrl')!,
      hostedCheckApiUrl: get('hostedCheckApiUrl')!,
      conversionTimeoutMs: get('importConversionTimeoutMs')!,
      conversionMemoryMb: get('importConversionMemoryMb')!,
    },
    organizations: { perUserLimit: get('orgsPerUserLimit')!, checksLimit: get('checksPerOrgLimit')! },
    statusPages: { rateLimit: get('statusPageRateLimit')! },
    notify: {
      testRateLimit: get('notifyTestRateLimit')!,
      timeoutSeconds: get('notifyTimeout')!,
      retryForSeconds: get('notifyRetryFor')!,
      leaseSeconds: get('notifyLease')!,
      pollIntervalSeconds: get('notifyPollInterval')!,
      apiUrls: {
        slack: get('notifySlackApiUrl')!,
        telegram: get('notifyTelegramApiUrl')!,
        pagerduty: get('notifyPagerdutyApiUrl')!,
        opsgenie: get('notifyOpsgenieApiUrl')!,
        ntfy: get('notifyNtfyUrl')!,
        pushover: get('notifyPushoverApiUrl')!,
      },
    },
    trustProxy: get('trustProxy')!,
    secrets: { key: get('secretKey'), previousKey: get('secretKeyPrevious') },
    runner: {
      role: get('nodeRole')! as RunnerConfig['role'],
      concurrency: get('runnerConcurrency')!,
      browserConcurrency: get('runnerBrowserConcurrency')!,
      orgSharePercent: get('runnerOrgShare')!,
      heartbeatPingIntervalSeconds: get('heartbeatPingInterval')!,
      denyPrivate: get('runnerDenyPrivate')!,
      allow: get('runnerAllow') ?? [],
      leaseSeconds: get('runnerLease')!,
      resultsRetentionSeconds: get('resultsRetention')!,
      expressionTimeoutMs: get('runnerExpressionTimeoutMs')!,
      expressionWorkers: get('runnerExpressionWorkers')!,
      probeThreads: get('runnerProbeThreads')!,
      resultBuffer: get('runnerResultBuffer')!,
      dryRun: get('runnerDryRun')!,
    },
    probes: { rdapBootstrapUrl: get('rdapBootstrapUrl')! },
    warnings,
    configFile: file.path,
  };
}
