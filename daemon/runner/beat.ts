/**
 * Runs start on the runner's beat: the first multiple of this many ms at or after their due
 * time. The runs due within one beat start in one turn of the event loop and share its wake-ups,
 * and those of the probe thread they go to (docs/monitoring.md, "A beat of 200 ms"); each
 * check's interval stays exact, since its slots move by the same amount every time.
 */
export const RUN_BEAT_MS = 200;

/** The beat of a time: the first multiple of RUN_BEAT_MS at or after it. */
export const onBeat = (atMs: number): number => Math.ceil(atMs / RUN_BEAT_MS) * RUN_BEAT_MS;

/**
 * The runner's one timer. Everything the runner does at a time of its own (a run starting, the
 * result batch written, the next claim) asks for the beat of that time, and all of it is done
 * when a beat comes: one wake-up of the thread for all of them rather than one per timer, since
 * on some machines a wake-up costs a fifth of a millisecond of CPU (docs/monitoring.md, "One
 * timer for the runner"). A beat comes with its time on the runner's
 * clock: what is due by it is done then, whatever a timer's rounding or an injected clock that
 * stands still reads at that moment. What was asked for a later beat asks again.
 */
export class Beat {
  #timer: NodeJS.Timeout | undefined;
  /** The beat the timer is set for. */
  #timerBeat = Number.POSITIVE_INFINITY;
  #stopped = false;

  /** `now` is the runner's clock; `tick` is called with the beat's time when one comes. */
  constructor(
    readonly now: () => number,
    private readonly tick: (beatMs: number) => void,
  ) {}

  /** Makes the beat of `atMs` come (at once when its time has passed), unless one comes sooner. */
  at(atMs: number): void {
    const beat = onBeat(atMs);
    if (this.#stopped || beat >= this.#timerBeat) return;
    clearTimeout(this.#timer);
    this.#timerBeat = beat;
    this.#timer = setTimeout(() => this.#come(), Math.max(0, beat - this.now()));
  }

  /** No beat comes any more. */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerBeat = Number.POSITIVE_INFINITY;
  }

  #come(): void {
    // A timer that comes late comes for every beat passed meanwhile.
    const beat = Math.max(this.#timerBeat, Math.floor(this.now() / RUN_BEAT_MS) * RUN_BEAT_MS);
    this.#timer = undefined;
    this.#timerBeat = Number.POSITIVE_INFINITY;
    this.tick(beat);
  }
}
