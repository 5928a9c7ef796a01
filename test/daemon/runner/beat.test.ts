import { describe, expect, it } from 'vitest';
import { manualClock, systemClock } from '../../../daemon/clock.js';
import { Beat, onBeat, RUN_BEAT_MS } from '../../../daemon/runner/beat.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A beat on `clock` that records when each of its ticks came (Date.now() and performance.now()). */
function recordedBeat(clock = systemClock) {
  const ticks: Array<{ wall: number; real: number }> = [];
  const beat = new Beat(
    () => clock.now().getTime(),
    () => ticks.push({ wall: Date.now(), real: performance.now() }),
  );
  return { beat, ticks };
}

// The runner's one timer (daemon/runner/beat.ts): runs, result batches and claims ask for it, and
// one wake-up serves them all.
describe("the runner's beat", () => {
  it('serves every ask made before it comes with one tick, on a multiple of the beat', async () => {
    const { beat, ticks } = recordedBeat();
    const asked = Date.now();
    beat.after(5);
    beat.after(40);
    beat.after(2.5 * RUN_BEAT_MS);
    await sleep(5 * RUN_BEAT_MS);
    expect(ticks).toHaveLength(1);
    // On the first beat at least 5 ms away (a timer may read a millisecond early on the wall
    // clock), not on the later ones asked for: those asks wait for it.
    expect(ticks[0].wall).toBeGreaterThanOrEqual(onBeat(asked + 5) - 1);
    expect(ticks[0].wall).toBeLessThan(onBeat(asked + 5) + 2 * RUN_BEAT_MS);
    beat.stop();
  });

  it('comes sooner when something asks for a sooner beat', async () => {
    const { beat, ticks } = recordedBeat();
    const asked = performance.now();
    beat.after(10 * RUN_BEAT_MS);
    beat.after(0);
    await sleep(3 * RUN_BEAT_MS);
    expect(ticks).toHaveLength(1);
    expect(ticks[0].real - asked).toBeLessThan(3 * RUN_BEAT_MS);
    beat.stop();
  });

  it('waits in real time under an injected clock that stands still', async () => {
    const { beat, ticks } = recordedBeat(manualClock(new Date('2026-03-01T10:00:00.050Z')));
    const asked = performance.now();
    // The clock's next beat is 50 ms away; 250 ms away is its third.
    beat.after(250);
    await sleep(500);
    expect(ticks).toHaveLength(1);
    expect(ticks[0].real - asked).toBeGreaterThanOrEqual(250 - 1);
    beat.stop();
  });

  it('comes no more once stopped', async () => {
    const { beat, ticks } = recordedBeat();
    beat.after(0);
    beat.stop();
    beat.after(0);
    await sleep(2 * RUN_BEAT_MS);
    expect(ticks).toHaveLength(0);
  });
});
