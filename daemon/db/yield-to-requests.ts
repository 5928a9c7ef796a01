/**
 * Lets the event loop serve what waits (other requests, timers) before the caller goes on. On
 * SQLite a query runs on the daemon's thread and its promise settles without a turn of the
 * loop, so a long series of statements (a large import's batches) would hold the loop from the
 * first to the last: awaiting this between batches gives the loop a turn after each.
 */
export const yieldToRequests = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
