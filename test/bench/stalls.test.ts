import { describe, expect, it } from 'vitest';
import { withStalls } from '../../bench/stalls.js';

/** Holds the thread for `ms`: the stall the finder must name. */
function holdTheThreadFor(ms: number): number {
  const until = performance.now() + ms;
  let spins = 0;
  while (performance.now() < until) spins++;
  return spins;
}

describe('the stall finder of the benchmarks', () => {
  it('names the function that held the event loop, and how long it held it', async () => {
    const [value, stalls] = await withStalls(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      holdTheThreadFor(120);
      await new Promise((resolve) => setTimeout(resolve, 20));
      return 'done';
    });
    expect(value).toBe('done');
    // On a busy machine another stall may come too: the one of the function is looked for among them.
    const stall = stalls.find(({ frames }) => frames.some(({ frame }) => frame.startsWith('holdTheThreadFor ')));
    expect(stall?.ms).toBeGreaterThanOrEqual(120);
    expect(stall?.samples).toBeGreaterThan(0);
    const held = stall?.frames.find(({ frame }) => frame.startsWith('holdTheThreadFor '));
    expect(held?.percent).toBeGreaterThanOrEqual(80);
  });

  it('finds no stall where the loop kept turning', async () => {
    const [, stalls] = await withStalls(() => new Promise((resolve) => setTimeout(resolve, 100)));
    expect(stalls.filter((stall) => stall.frames.some(({ frame }) => frame.startsWith('holdTheThreadFor ')))).toEqual([]);
  });
});
