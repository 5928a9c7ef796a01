import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';

/** What a request answered when only its status and headers matter. */
export interface StatusAnswer {
  statusCode: number;
  headers: IncomingHttpHeaders;
}

/** What `requestStatus` sends. */
export interface StatusRequest {
  method: Dispatcher.HttpMethod;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

/** The most of a body read and dropped, as undici's `body.dump()` does: past it the connection is cut. */
export const MAX_DROPPED_BODY_BYTES = 128 * 1024;

/**
 * Sends one request over `dispatcher` and answers its final status and headers once its body has
 * been read to the end and dropped. It is undici's `request()` followed by `body.dump()`, without
 * the body stream, the async scope and their garbage (docs/monitoring.md, "A run's exchange
 * without a pool or a body stream"), and it ends as `dump()` does: past 128 KiB of body (or a
 * `Content-Length` over it) the connection is cut and the answer counts as complete, and a body
 * that fails once the status is in is dropped with its failure. Rejects with the signal's reason
 * when it aborts, and with undici's error when the exchange fails before the status.
 */
export function requestStatus(dispatcher: Dispatcher, url: URL, request: StatusRequest): Promise<StatusAnswer> {
  const { signal } = request;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    let answer: StatusAnswer | undefined;
    let controller: Dispatcher.DispatchController | undefined;
    let dropped = 0;
    let settled = false;
    const onAbort = () => controller?.abort(signal.reason);
    const settle = (error: Error | undefined) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve(answer!);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      dispatcher.dispatch(
        {
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: request.method,
          headers: request.headers,
          body: request.body,
        },
        {
          onRequestStart(started) {
            controller = started;
            if (signal.aborted) started.abort(signal.reason);
          },
          onResponseStart(starting, statusCode, headers) {
            // Informational answers (1xx) come before the final one.
            if (statusCode < 200) return;
            answer = { statusCode, headers: headers as IncomingHttpHeaders };
            if (request.method !== 'HEAD' && Number(headers['content-length']) > MAX_DROPPED_BODY_BYTES) {
              settle(undefined);
              starting.abort(BODY_DROPPED);
            }
          },
          onResponseData(reading, chunk) {
            dropped += chunk.length;
            if (dropped > MAX_DROPPED_BODY_BYTES) {
              settle(undefined);
              reading.abort(BODY_DROPPED);
            }
          },
          onResponseEnd() {
            settle(undefined);
          },
          onResponseError(_controller, error) {
            // Once the status is in, a body that fails goes with the rest of it, as a dumped one does.
            settle(answer && !signal.aborted ? undefined : error);
          },
        },
      );
    } catch (error) {
      settle(error as Error);
    }
  });
}

/** Why a long body's connection is cut once enough of it was dropped: one error for every run. */
const BODY_DROPPED = new Error('enough of the body was read');
