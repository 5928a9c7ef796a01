import { ImportInputError, type ConversionResult, type ImportSource } from '../../importers/index.js';
import type { CheckDefinition } from '../../checks/index.js';
import { AppError } from '../errors.js';
import { upstreamFailed, type UpstreamProblem } from './hosted-input.js';
import { conversionPool, type ConversionWorkers } from './conversion-workers.js';

/** Checks per message from the worker. */
export const CHECKS_PER_MESSAGE = 500;

/** One conversion, as the worker receives it. */
export interface ConversionJob {
  source: ImportSource;
  input: Uint8Array;
  /** For a token source: the base URL of its API. */
  apiUrl: string;
}

/** What the conversion worker reports while it works: a batch of checks. */
export interface ConversionBatch {
  checks: CheckDefinition[];
  /** Each check's `canonicalJson`, in the same order (what a re-run compares and records). */
  canonical: string[];
}

/** The end of a whole conversion: the rest of the result, with its digest. */
export interface ConversionDone {
  warnings: ConversionResult['warnings'];
  skipped: ConversionResult['skipped'];
  pingTokens?: ConversionResult['pingTokens'];
  maintenance?: ConversionResult['maintenance'];
  digest: string;
  /** The path of the first NUL character in the checks (see nulIssues), when one holds any. */
  nulPath?: string;
  /** Whether the worker answered from its last conversion, of the same source and bytes. */
  reused: boolean;
}

/** The worker's answer: the rest of the result with its digest, or why there is none. */
export type ConversionAnswer = { done: ConversionDone } | { inputError: string } | { upstream: UpstreamProblem } | { failure: string };

/** A conversion and its digest (see import-digest.ts). */
export interface Converted {
  result: ConversionResult;
  digest: string;
  /** `canonicalJson` of each check of `result.checks`, in order. */
  canonical: string[];
  /** The path of the first NUL character in the checks, when one holds any. */
  nulPath?: string;
  /**
   * Whether the organization's kept worker answered from its last conversion, of the same source
   * and the same bytes (most often the apply after its preview), instead of converting again.
   * Never for a token whose monitors are fetched: those are fetched again.
   */
  reused: boolean;
}

/** The limits of one conversion (config `import.conversion_timeout_ms`, `import.conversion_memory_mb`). */
export interface ConversionLimits {
  timeoutMs: number;
  memoryMb: number;
}

/** Where a token source reads the monitors (config `import.hosted_monitor_api_url`, `import.cron_monitor_api_url`, `import.hosted_check_api_url`). */
export interface ConversionSettings extends ConversionLimits {
  apiUrl: string;
}

const seconds = (ms: number) => (ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`);

/**
 * Converts the request body `input` as `source` on a worker thread of its own (for a token
 * source, fetching the monitors there first), so that neither a large input nor a crafted one
 * (a database whose reads spin) holds the event loop. The worker is stopped at the time limit
 * (400 INVALID_IMPORT_INPUT, `details.reason: CONVERSION_TIMEOUT`) and cannot grow its heap
 * past the memory limit (413 PAYLOAD_TOO_LARGE, `details.reason: CONVERSION_MEMORY`).
 * Unreadable input throws ImportInputError, as the converter would; a refused token or an
 * unreachable API is 502 UPSTREAM_FAILED. With `workers`, the conversion runs on the app's spare
 * worker when it may (see ConversionWorkers), and hands its worker back when it is done.
 */
export async function convertOffThread(
  source: ImportSource,
  input: Uint8Array,
  limits: ConversionSettings,
  workers?: { pool: ConversionWorkers; org: string },
): Promise<Converted> {
  const pool = workers ? workers.pool.take(limits.memoryMb, workers.org) : conversionPool(limits.memoryMb);
  const checks: CheckDefinition[] = [];
  const canonical: string[] = [];
  let outcome;
  try {
    outcome = await pool.run(
      { source, input, apiUrl: limits.apiUrl },
      {
        deadlineMs: limits.timeoutMs,
        countStartup: true,
        onProgress: (batch) => {
          for (const check of batch.checks) checks.push(check);
          for (const text of batch.canonical) canonical.push(text);
        },
      },
    );
  } finally {
    if (workers) workers.pool.release(pool, limits.memoryMb, source, workers.org, outcome?.ok === true && 'done' in outcome.value);
    else await pool.close();
  }
  if (outcome.ok) {
    const answer = outcome.value;
    if ('done' in answer) {
      const { warnings, skipped, pingTokens, maintenance, digest, nulPath, reused } = answer.done;
      return {
        result: { checks, warnings, skipped, ...(pingTokens ? { pingTokens } : {}), ...(maintenance ? { maintenance } : {}) },
        digest,
        canonical,
        ...(nulPath === undefined ? {} : { nulPath }),
        reused,
      };
    }
    if ('inputError' in answer) throw new ImportInputError(answer.inputError);
    if ('upstream' in answer) throw upstreamFailed(answer.upstream);
    throw new Error(`import conversion failed: ${answer.failure}`);
  }
  if (outcome.reason === 'timeout') {
    throw new AppError(
      'INVALID_IMPORT_INPUT',
      `The ${source} import took longer than ${seconds(limits.timeoutMs)} to convert this input and was stopped; nothing was written. ` +
        'Split the export into smaller parts, or check that it is what the tool wrote.',
      { source, reason: 'CONVERSION_TIMEOUT', limitMs: limits.timeoutMs },
    );
  }
  if (outcome.code === 'ERR_WORKER_OUT_OF_MEMORY') {
    throw new AppError(
      'PAYLOAD_TOO_LARGE',
      `Converting this ${source} input needs more than ${limits.memoryMb} MiB of memory, the limit of one import; nothing was written. ` +
        'Split the export into smaller parts.',
      { source, reason: 'CONVERSION_MEMORY', limitMb: limits.memoryMb },
    );
  }
  throw new Error(`import conversion failed: ${outcome.error ?? outcome.reason}`);
}
