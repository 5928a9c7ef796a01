/** The first retry waits this long; each next one twice as long, up to MAX_BACKOFF_SECONDS. */
export const FIRST_BACKOFF_SECONDS = 10;
export const MAX_BACKOFF_SECONDS = 3600;

/** Seconds to wait after the `attempts`-th failed attempt: 10 s, 20 s, 40 s, ... capped at 1 h. */
export const backoffSeconds = (attempts: number): number => Math.min(MAX_BACKOFF_SECONDS, FIRST_BACKOFF_SECONDS * 2 ** Math.max(0, attempts - 1));

/**
 * When a message is tried again after its `attempts`-th attempt failed at `now`: after the
 * back-off, or never (undefined) when the failure is permanent or the next attempt would fall
 * after its created_at + retryForSeconds. Shared by the notification and subscriber-mail outboxes.
 */
export function nextAttemptAt(
  row: { attempts: number; created_at: string },
  failure: { permanent: boolean },
  now: Date,
  retryForSeconds: number,
): Date | undefined {
  const next = new Date(now.getTime() + backoffSeconds(row.attempts) * 1000);
  return !failure.permanent && next.getTime() <= new Date(row.created_at).getTime() + retryForSeconds * 1000 ? next : undefined;
}
