/**
 * SQLite answers each statement synchronously, so a chain of statements (the writes of a large
 * import, thousands of rows in one transaction) runs as one span in which the event loop serves
 * nothing else. Each statement first asks `turnIfLong()`: once the statements since the loop's
 * last turn have run for LONGEST_SPAN_MS, the next one waits for a turn of the loop.
 */

/** How long statements run in one turn of the event loop before the next waits for a turn. */
export const LONGEST_SPAN_MS = 20;

/** When the span of statements under way started; cleared at the loop's next turn. */
let spanStart: number | undefined;

const endSpan = () => {
  spanStart = undefined;
};

/** A promise of the loop's next turn when the span of statements under way has run long enough; else nothing to wait for. */
export function turnIfLong(): Promise<void> | undefined {
  const now = performance.now();
  if (spanStart === undefined) {
    spanStart = now;
    setImmediate(endSpan);
    return undefined;
  }
  if (now - spanStart < LONGEST_SPAN_MS) return undefined;
  // The span's end was queued first, so the statement after this wait starts a new one.
  return new Promise<void>((resolve) => setImmediate(resolve));
}
