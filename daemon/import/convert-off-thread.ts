import { Worker } from 'node:worker_threads';
import { ImportInputError, type ConversionResult, type ImportSource } from '../../importers/index.js';
import type { CheckDefinition } from '../../checks/index.js';
import { AppError } from '../errors.js';
import { upstreamFailed, type UpstreamProblem } from './hosted-input.js';

/** Checks per message from the worker. */
export const CHECKS_PER_MESSAGE = 500;

/**
 * What the conversion worker posts: batches of checks, then the rest of the result with its
 * digest; or why there is no result.
 */
export type ConversionMessage =
  | { checks: CheckDefinition[] }
  | { done: { warnings: ConversionResult['warnings']; skipped: ConversionResult['skipped']; digest: string } }
  | { inputError: string }
  | { upstream: UpstreamProblem }
  | { failure: string };

/** A conversion and its digest (see import-digest.ts). */
export interface Converted {
  result: ConversionResult;
  digest: string;
}

/** The limits of one conversion (config `import.conversion_timeout_ms`, `import.conversion_memory_mb`). */
export interface ConversionLimits {
  timeoutMs: number;
  memoryMb: number;
}

/** Where the token source reads the monitors (config `import.hosted_monitor_api_url`). */
export interface ConversionSettings extends ConversionLimits {
  hostedApiUrl: string;
}

/**
 * The compiled worker entry. Run from dist/ it sits beside this module; loaded from the
 * TypeScript source (the test runner), the worker still runs the compiled copy, because a
 * worker thread cannot load TypeScript: `npm run build` first.
 */
function workerEntry(): URL {
  const here = import.meta.url;
  if (here.endsWith('.js')) return new URL('./conversion-worker.js', here);
  return new URL('../../dist/daemon/import/conversion-worker.js', here);
}

const seconds = (ms: number) => (ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`);

/**
 * Converts the request body `input` as `source` on a worker thread of its own (for the token
 * source, fetching the monitors there first), so that neither a large input nor a crafted one
 * (a database whose reads spin) holds the event loop. The worker is stopped at the time limit
 * (400 INVALID_IMPORT_INPUT, `details.reason: CONVERSION_TIMEOUT`) and cannot grow its heap
 * past the memory limit (413 PAYLOAD_TOO_LARGE, `details.reason: CONVERSION_MEMORY`).
 * Unreadable input throws ImportInputError, as the converter would; a refused token or an
 * unreachable API is 502 UPSTREAM_FAILED.
 */
export function convertOffThread(source: ImportSource, input: Uint8Array, limits: ConversionSettings): Promise<Converted> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerEntry(), {
      workerData: { source, input, hostedApiUrl: limits.hostedApiUrl },
      resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb, maxYoungGenerationSizeMb: Math.min(64, Math.max(4, limits.memoryMb / 8)) },
      // The converter has no use for the daemon's environment (its secrets included).
      env: {},
    });
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
      void worker.terminate();
    };
    const timer = setTimeout(
      () =>
        settle(() =>
          reject(
            new AppError(
              'INVALID_IMPORT_INPUT',
              `The ${source} import took longer than ${seconds(limits.timeoutMs)} to convert this input and was stopped; nothing was written. ` +
                'Split the export into smaller parts, or check that it is what the tool wrote.',
              { source, reason: 'CONVERSION_TIMEOUT', limitMs: limits.timeoutMs },
            ),
          ),
        ),
      limits.timeoutMs,
    );
    const checks: CheckDefinition[] = [];
    worker.on('message', (message: ConversionMessage) => {
      if ('checks' in message) {
        for (const check of message.checks) checks.push(check);
        return;
      }
      settle(() => {
        if ('done' in message) resolve({ result: { checks, warnings: message.done.warnings, skipped: message.done.skipped }, digest: message.done.digest });
        else if ('inputError' in message) reject(new ImportInputError(message.inputError));
        else if ('upstream' in message) reject(upstreamFailed(message.upstream));
        else reject(new Error(`import conversion failed: ${message.failure}`));
      });
    });
    worker.once('error', (error: Error & { code?: string }) =>
      settle(() =>
        reject(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new AppError(
                'PAYLOAD_TOO_LARGE',
                `Converting this ${source} input needs more than ${limits.memoryMb} MiB of memory, the limit of one import; nothing was written. ` +
                  'Split the export into smaller parts.',
                { source, reason: 'CONVERSION_MEMORY', limitMb: limits.memoryMb },
              )
            : new Error(`import conversion failed: ${error.message}`),
        ),
      ),
    );
    worker.once('exit', (code) => settle(() => reject(new Error(`import conversion worker stopped with exit code ${code}`))));
  });
}
