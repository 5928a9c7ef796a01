import { describe, expect, it } from 'vitest';
import { manualClock, systemClock } from '../../../daemon/clock.js';
import { Beat, onBeat, RUN_BEAT_MS } from '../../../daemon/runner/beat.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A beat on `clock` that records each of its ticks: the beat it came with, and when (Date.now() and performance.now()). */
function recordedBeat(clock = systemClock) {
  const ticks: Array<{ beat: number; wall: number; real: number }> = [];
  const beat = new Beat(
    () => clock.now().getTime(),
    (beatMs) => ticks.push({ beat: beatMs, wall: Date.now(), real: performance.now() }),
  );
  return { beat, ticks };
}

// The runner's one timer (daemon/runner/beat.ts): runs, result batches and claims ask for it, and
// one wake-up serves them all.
describe("the runner's beat", () => {
  it('serves every ask made before it comes with one tick, the first beat asked for', async () => {
    const { beat, ticks } = recordedBeat();
    const asked = Date.now();
    beat.at(asked + 5);
    beat.at(asked + 40);
    beat.at(asked + 2.5 * RUN_BEAT_MS);
    await sleep(5 * RUN_BEAT_MS);
    expect(ticks).toHaveLength(1);
    expect(ticks[0].beat).toBe(onBeat(asked + 5));
    // A timer may read a millisecond early on the wall clock; the later beats asked for wait for this one.
    expect(ticks[0].wall).toBeGreaterThanOrEqual(ticks[0].beat - 1);
    expect(ticks[0].wall).toBeLessThan(ticks[0].beat + 2 * RUN_BEAT_MS);
    beat.stop();
  });

  it('comes sooner when something asks for a sooner beat, and at once for one passed', async () => {
    const { beat, ticks } = recordedBeat();
    const asked = performance.now();
    beat.at(Date.now() + 10 * RUN_BEAT_MS);
    beat.at(Date.now() - 3 * RUN_BEAT_MS);
    await sleep(3 * RUN_BEAT_MS);
    expect(ticks).toHaveLength(1);
    expect(ticks[0].real - asked).toBeLessThan(2 * RUN_BEAT_MS);
    beat.stop();
  });

  it('comes for the beat asked, after the wait it asked, under an injected clock that stands still', async () => {
    const clock = manualClock(new Date('2026-03-01T10:00:00.050Z'));
    const { beat, ticks } = recordedBeat(clock);
    const asked = performance.now();
    const standing = clock.now().getTime();
    beat.at(standing + 250);
    // The clock reads the same all along: the timer waits from it to the beat of the time asked.
    const beatAsked = onBeat(standing + 250);
    await sleep(beatAsked - standing + RUN_BEAT_MS);
    expect(ticks).toHaveLength(1);
    expect(ticks[0].beat).toBe(beatAsked);
    expect(ticks[0].real - asked).toBeGreaterThanOrEqual(beatAsked - standing - 1);
    beat.stop();
  });

  it('comes late with the beat the clock has reached: everything due by then is done on it', async () => {
    const clock = manualClock(new Date('2026-03-01T10:00:00.000Z'));
    const { beat, ticks } = recordedBeat(clock);
    beat.at(clock.now().getTime() + 50);
    clock.advance(1234);
    await sleep(3 * RUN_BEAT_MS);
    expect(ticks.map((tick) => tick.beat)).toEqual([new Date('2026-03-01T10:00:01.200Z').getTime()]);
    beat.stop();
  });

  it('comes no more once stopped', async () => {
    const { beat, ticks } = recordedBeat();
    beat.at(0);
    beat.stop();
    beat.at(0);
    await sleep(2 * RUN_BEAT_MS);
    expect(ticks).toHaveLength(0);
  });
});
