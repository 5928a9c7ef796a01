/**
 * Runs `teardown` when `signal` aborts (at once if it already has), and returns a function that
 * forgets it: probes call it to destroy their sockets when the deadline passes.
 */
export function onAbort(signal: AbortSignal, teardown: (reason: unknown) => void): () => void {
  if (signal.aborted) {
    teardown(signal.reason);
    return () => {};
  }
  const listener = () => teardown(signal.reason);
  signal.addEventListener('abort', listener, { once: true });
  return () => signal.removeEventListener('abort', listener);
}
