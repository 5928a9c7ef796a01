// The entry of the worker thread that runs imports (see convert-off-thread.ts), one at a time and
// of one organization only (conversion-workers.ts): for a token source it first fetches the
// monitors with the token, then converts and answers. A limit that stops it takes nothing else down.
import { convertImport, fetchWithToken, ImportInputError, IMPORT_REGISTRY, isSavedListing, type ImportSource } from '../../importers/index.js';
import type { CheckDefinition } from '../../checks/index.js';
import { canonicalJson } from '../checks/canonical-json.js';
import { nulIssues } from '../http/nul-bytes.js';
import { serveWorker, startedWith } from '../workers/serve-worker.js';
import type { ConversionWorkerData } from './conversion-workers.js';
import { CHECKS_PER_MESSAGE, type ConversionAnswer, type ConversionBatch, type ConversionDone, type ConversionJob } from './convert-off-thread.js';
import { ConversionDigest } from './import-digest.js';

// A worker started ahead of its import (conversion-workers.ts) loads the converter of the import
// before it while it waits: most often the apply of the same source follows a preview.
const preload = startedWith<ConversionWorkerData>()?.preload;
if (preload && preload in IMPORT_REGISTRY) {
  const entry = IMPORT_REGISTRY[preload];
  // A module that fails to load fails the job that needs it, with its own message.
  void Promise.all([entry.load(), entry.token?.loadFetch()]).catch(() => undefined);
}

/**
 * This worker's last conversion that came back whole, of a body that is the data itself (not a
 * token whose monitors are fetched): the next job of the same source and the same bytes, most
 * often the apply after its preview, is answered from it without converting again. A worker
 * converts the imports of one organization only (conversion-workers.ts), and what it keeps is
 * dropped as the next job starts, so no two conversions are ever held at once.
 */
let last: { source: ImportSource; input: Uint8Array; batches: ConversionBatch[]; done: ConversionDone } | undefined;

const sameBytes = (a: Uint8Array, b: Uint8Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b);

serveWorker(convert, { paced: true });

/** One job: the conversion, sent in batches as `progress` reports, then the rest of it. */
async function convert({ source, input, apiUrl }: ConversionJob, progress: (batch: ConversionBatch) => Promise<void>): Promise<ConversionAnswer> {
  const kept = last;
  last = undefined;
  if (kept && kept.source === source && sameBytes(kept.input, input)) {
    for (const batch of kept.batches) await progress(batch);
    last = kept;
    return { done: { ...kept.done, reused: true } };
  }
  try {
    // A token source's body is a token (or API key), or its listings saved as JSON. With a token
    // the monitors are fetched here, so that their pages are parsed off the daemon's event loop
    // too; the token is used for that request and then dropped.
    const withToken = IMPORT_REGISTRY[source].fetchesWithToken && !isSavedListing(input);
    const data = withToken ? await fetchWithToken(source, input, { baseUrl: apiUrl }) : input;
    const result = await convertImport(source, data);
    // The checks go in batches, paced (serve-worker.ts): the main thread reads one or two per turn
    // of its event loop instead of all of a large import at once (a kept conversion has all of
    // them ready at once), and reads each while the next is written out.
    // Each goes with its canonical JSON, and the checks are searched for NUL characters here, so
    // that the event loop does neither.
    const digest = new ConversionDigest();
    let nulPath: string | undefined;
    const batches: ConversionBatch[] = [];
    for (let i = 0; i < result.checks.length; i += CHECKS_PER_MESSAGE) {
      const checks = result.checks.slice(i, i + CHECKS_PER_MESSAGE);
      const canonical = checks.map((check) => canonicalJson(check));
      digest.addChecks(canonical);
      nulPath ??= firstNulPath(checks, canonical, i);
      await progress({ checks, canonical });
      batches.push({ checks, canonical });
    }
    const { warnings, skipped, pingTokens, maintenance } = result;
    const done: ConversionDone = {
      warnings,
      skipped,
      ...(pingTokens ? { pingTokens } : {}),
      ...(maintenance ? { maintenance } : {}),
      digest: digest.finish(result),
      ...(nulPath === undefined ? {} : { nulPath }),
      reused: false,
    };
    if (!withToken) last = { source, input, batches, done };
    return { done };
  } catch (error) {
    // The adapters (and undici) load only for a token source, so their error class is looked up late.
    const { HostedApiError } = error instanceof ImportInputError ? { HostedApiError: undefined } : await import('../../importers/shared/upstream-error.js');
    if (error instanceof ImportInputError) return { inputError: error.message };
    if (HostedApiError && error instanceof HostedApiError) {
      return { upstream: { reason: error.reason, message: error.message, status: error.status, retryAfterSeconds: error.retryAfterSeconds } };
    }
    // Only the message: a stack trace names files, and never reaches a response anyway.
    return { failure: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Where the first of `checks` holding a NUL character holds it (as nulIssues names it, counting
 * the checks from `first`), or undefined. JSON text writes a NUL as `\u0000`, so only a check
 * whose canonical JSON holds that is searched.
 */
function firstNulPath(checks: readonly CheckDefinition[], canonical: readonly string[], first: number): string | undefined {
  for (let i = 0; i < checks.length; i++) {
    if (!canonical[i].includes('\\u0000')) continue;
    const [issue] = nulIssues(checks[i]);
    if (issue) return `checks.${first + i}.${issue.path}`;
  }
  return undefined;
}
