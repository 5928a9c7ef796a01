// The import sources and their converters, in one table, so that the daemon's endpoint and the
// CLI's `--local` preview convert with exactly the same code. Converters are loaded on first use:
// the CLI starts without parsing YAML, JSON:API or WebAssembly modules it will not need.
import type { ConversionResult, ConvertOptions } from './converter.js';
import type { HostedMonitorData } from './betterstack/index.js';
import type { CronMonitorChecks } from './healthchecks/fetch-checks.js';
import type { HostedCheckData } from './pingdom/read-checks.js';
import { IMPORT_SOURCE_DESCRIPTIONS } from '../contract/import-sources.js';
import { ImportInputError } from './shared/import-input-error.js';
import { IMPORT_SOURCES, canonicalSource, type ImportSource } from './shared/sources.js';

/** What a converter reads: the raw export, or for a token source the data fetched with the token. */
export type ConverterInput = Uint8Array | string | HostedMonitorData | CronMonitorChecks | HostedCheckData;

/** Where a token source's API is and how to stop waiting for it. */
export interface TokenFetchOptions {
  baseUrl: string;
  signal?: AbortSignal;
}

/** The network step of a token source: the token (or API key) in, the plain data its converter reads out. */
type TokenFetch = (token: string, options: TokenFetchOptions) => Promise<ConverterInput>;

/** A converter as the registry calls it: the self-hosted one first loads sql.js, hence async. */
type LoadedConverter = (input: ConverterInput, options?: ConvertOptions) => ConversionResult | Promise<ConversionResult>;

/** One source: what its input is, and how to get its converter. */
export interface ImportSourceEntry {
  readonly source: ImportSource;
  /** The real tool's name, accepted as an alias. */
  readonly tool: string;
  /** The real tool's name as people write it. */
  readonly toolName: string;
  /** What the request body (or the CLI's input) is, for help and error messages. */
  readonly input: string;
  /** Whether the body may be a token that the daemon or CLI exchanges for the monitors first (network). */
  readonly fetchesWithToken: boolean;
  /** For a token source: its two inputs, for error messages, and its network step (loaded on first use). */
  readonly token?: { readonly inputs: string; loadFetch(): Promise<TokenFetch> };
  /** Whether the input may span several files, sent as one file bundle (importers/shared/file-bundle.ts). */
  readonly multipleFiles?: boolean;
  load(): Promise<LoadedConverter>;
}

/** Every import source, keyed by its canonical value, in the order of IMPORT_SOURCES. */
export const IMPORT_REGISTRY: Readonly<Record<ImportSource, ImportSourceEntry>> = Object.freeze({
  'configfile-monitor': {
    source: 'configfile-monitor',
    ...IMPORT_SOURCE_DESCRIPTIONS['configfile-monitor'],
    fetchesWithToken: false,
    load: () => import('./gatus/index.js').then((m) => m.convertConfigFile as LoadedConverter),
  },
  'cron-monitor-api': {
    source: 'cron-monitor-api',
    ...IMPORT_SOURCE_DESCRIPTIONS['cron-monitor-api'],
    fetchesWithToken: true,
    token: {
      inputs:
        "an API key of the cron monitor's project (one line, no spaces; from the CLI, pass it with --token-env VAR) " +
        'or the JSON of its checks listing (GET /api/v3/checks/) saved to a file',
      loadFetch: () =>
        import('./healthchecks/fetch-checks.js').then(
          (m): TokenFetch =>
            (apiKey, options) =>
              m.fetchCronMonitorChecks({ apiKey, ...options }),
        ),
    },
    load: () => import('./healthchecks/index.js').then((m) => m.convertCronMonitorApi as LoadedConverter),
  },
  'hosted-check-api': {
    source: 'hosted-check-api',
    ...IMPORT_SOURCE_DESCRIPTIONS['hosted-check-api'],
    fetchesWithToken: true,
    token: {
      inputs:
        'an API token of the hosted check service (one line, no spaces; from the CLI, pass it with --token-env VAR) ' +
        'or the JSON of its GET /checks listing or GET /checks/{id} answers saved to a file',
      loadFetch: () =>
        import('./pingdom/fetch-checks.js').then(
          (m): TokenFetch =>
            (token, options) =>
              m.fetchHostedChecks({ token, ...options }),
        ),
    },
    load: () => import('./pingdom/index.js').then((m) => m.convertHostedCheckApi as LoadedConverter),
  },
  'hosted-monitor-api': {
    source: 'hosted-monitor-api',
    ...IMPORT_SOURCE_DESCRIPTIONS['hosted-monitor-api'],
    fetchesWithToken: true,
    token: {
      inputs:
        'an API token of the hosted monitoring service (one line, no spaces; from the CLI, pass it with --token-env VAR) ' +
        'or the JSON of its monitors and heartbeats listings saved to a file',
      loadFetch: () =>
        import('./betterstack/index.js').then(
          (m): TokenFetch =>
            (token, options) =>
              m.fetchHostedMonitors({ token, ...options }),
        ),
    },
    load: () => import('./betterstack/index.js').then((m) => m.convertHostedMonitorApi as LoadedConverter),
  },
  'probe-exporter-config': {
    source: 'probe-exporter-config',
    ...IMPORT_SOURCE_DESCRIPTIONS['probe-exporter-config'],
    fetchesWithToken: false,
    multipleFiles: true,
    load: () => import('./blackbox-exporter/index.js').then((m) => m.convertProbeExporterConfig as LoadedConverter),
  },
  'selfhosted-monitor-db': {
    source: 'selfhosted-monitor-db',
    ...IMPORT_SOURCE_DESCRIPTIONS['selfhosted-monitor-db'],
    fetchesWithToken: false,
    load: () => import('./uptime-kuma/index.js').then((m) => m.convertSelfhostedMonitorDbAsync as LoadedConverter),
  },
  'uptime-api-monitor': {
    source: 'uptime-api-monitor',
    ...IMPORT_SOURCE_DESCRIPTIONS['uptime-api-monitor'],
    fetchesWithToken: false,
    load: () => import('./uptimerobot/index.js').then((m) => m.convertUptimeApiMonitor as LoadedConverter),
  },
});

/** The registry entry of a source value or tool alias, or undefined when it is neither. */
export function importSourceEntry(name: string): ImportSourceEntry | undefined {
  const source = canonicalSource(name);
  return source && IMPORT_REGISTRY[source];
}

/** `configfile-monitor (gatus), ...`: the allowed values, for error messages and help. */
export function describeImportSources(): string {
  return IMPORT_SOURCES.map((source) => `${source} (${IMPORT_REGISTRY[source].tool})`).join(', ');
}

/**
 * Converts the input of `source` with its converter. For a token source given a token the
 * input is what `fetchWithToken` returned, never the token: the network step stays outside the pure
 * converter. Throws ImportInputError when the input cannot be read at all.
 */
export async function convertImport(source: ImportSource, input: ConverterInput, options?: ConvertOptions): Promise<ConversionResult> {
  const convert = await IMPORT_REGISTRY[source].load();
  return convert(input, options);
}

/** The sources that fetch with a token (or API key), in the order of IMPORT_SOURCES. */
export const TOKEN_SOURCES: readonly ImportSource[] = IMPORT_SOURCES.filter((source) => IMPORT_REGISTRY[source].fetchesWithToken);

/**
 * Whether the input of a token source is its listings saved as JSON rather than a token:
 * it starts with `{` or `[`, which no token does. Saved listings convert without the network.
 */
export function isSavedListing(input: Uint8Array | string): boolean {
  const text = typeof input === 'string' ? input : new TextDecoder().decode(input.subarray(0, 64));
  return /^\s*[[{]/.test(text.replace(/^\uFEFF/, ''));
}

/**
 * Reads the token out of a request body or a file: surrounding blanks and line ends are not part
 * of it. `source` names the token source, for the inputs it takes in the error messages.
 */
export function tokenText(input: Uint8Array | string, source: ImportSource = 'hosted-monitor-api'): string {
  const inputs = IMPORT_REGISTRY[source].token?.inputs ?? 'an API token';
  const text = typeof input === 'string' ? input : new TextDecoder().decode(input);
  const token = text.trim();
  if (token === '') throw new ImportInputError(`expected ${inputs}, but the input is empty`);
  if (/\s/.test(token) || token.length > 4096) throw new ImportInputError(`expected ${inputs}, but the input is neither`);
  return token;
}

/**
 * The network step of a token source (`cron-monitor-api`, `hosted-check-api`, `hosted-monitor-api`): exchanges the
 * token for the plain data its converter reads, at `options.baseUrl`. Throws ImportInputError for
 * something that cannot be a token, and the adapter's HostedApiError when the API refuses the
 * token or cannot be reached.
 */
export async function fetchWithToken(source: ImportSource, input: Uint8Array | string, options: TokenFetchOptions): Promise<ConverterInput> {
  const token = IMPORT_REGISTRY[source].token;
  if (token === undefined) throw new ImportInputError(`the ${source} import reads an export, not a token`);
  const text = tokenText(input, source);
  const fetchData = await token.loadFetch();
  return fetchData(text, options);
}
