/**
 * Runs start on the runner's beat: the first multiple of this many ms at or after their due
 * time. The runs due within one beat start in one turn of the event loop and share its wake-ups,
 * which costs a fifth less CPU on the daemon's thread at ordinary rates (docs/monitoring.md); each check's
 * interval stays exact, since its slots move by the same amount every time.
 */
export const RUN_BEAT_MS = 100;

/** The beat of a time: the first multiple of RUN_BEAT_MS at or after it. */
export const onBeat = (atMs: number): number => Math.ceil(atMs / RUN_BEAT_MS) * RUN_BEAT_MS;

/**
 * Whether a time `atMs` has come at `nowMs` (both of `performance.now()`). A timer can come a
 * millisecond before its time reads on a clock with fractions: Node times it in whole
 * milliseconds of its own monotonic clock.
 */
export const hasCome = (atMs: number, nowMs: number): boolean => nowMs + 1 >= atMs;

/**
 * The runner's one timer. Everything the runner does at a time of its own (a run starting, the
 * result batch written, the next claim) asks for a beat then, and all of it is done when the
 * beat comes: one wake-up of the thread for all of them rather than one per timer, since on
 * some machines a wake-up costs as much CPU as a run's own work on the thread
 * (docs/monitoring.md, "One timer for the runner"). Beats fall on the multiples of RUN_BEAT_MS
 * of the runner's clock; what waits for one keeps its own time in `performance.now()`, so that
 * the waits are real ones under an injected clock too.
 */
export class Beat {
  #timer: NodeJS.Timeout | undefined;
  /** When the timer comes, in `performance.now()`. */
  #timerAt = Number.POSITIVE_INFINITY;
  #stopped = false;

  /** `tick` is called when a beat comes. */
  constructor(
    private readonly now: () => number,
    private readonly tick: () => void,
  ) {}

  /** Makes a beat come on the first beat at least `delayMs` from now (at once when not positive), unless one comes sooner. */
  after(delayMs: number): void {
    if (this.#stopped) return;
    const nowMs = this.now();
    const wait = Math.max(0, onBeat(nowMs + delayMs) - nowMs);
    const at = performance.now() + wait;
    // Asked again for the beat it is set for (the wall clock and `performance.now()` differ in their fractions).
    if (at >= this.#timerAt - 1) return;
    clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(() => this.#come(), wait);
  }

  /** No beat comes any more. */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = Number.POSITIVE_INFINITY;
  }

  #come(): void {
    this.#timer = undefined;
    this.#timerAt = Number.POSITIVE_INFINITY;
    this.tick();
  }
}
