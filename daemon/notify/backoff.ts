/** The first retry waits this long; each next one twice as long, up to MAX_BACKOFF_SECONDS. */
export const FIRST_BACKOFF_SECONDS = 10;
export const MAX_BACKOFF_SECONDS = 3600;

/** Seconds to wait after the `attempts`-th failed attempt: 10 s, 20 s, 40 s, ... capped at 1 h. */
export const backoffSeconds = (attempts: number): number => Math.min(MAX_BACKOFF_SECONDS, FIRST_BACKOFF_SECONDS * 2 ** Math.max(0, attempts - 1));
