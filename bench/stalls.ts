import { Session } from 'node:inspector/promises';
import { frameName, type ProfileNode } from './cpu-profile.js';

// Where the event loop stalled while some work ran in this process: the loop is timed every
// 5 ms, this thread is sampled by V8's profiler meanwhile, and the samples that fall inside each
// gap of the timer are summed by the frames on their stacks. An event-loop delay histogram says
// how long the longest stall was; this says which code held the thread.

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
}

/** One stall: how long the loop did not turn, and the frames most often on the stack meanwhile. */
export interface Stall {
  ms: number;
  samples: number;
  frames: Array<{ frame: string; percent: number }>;
}

/** The timer's period: a gap longer than this plus `minMs` is a stall. */
const TICK_MS = 5;
/** How often the profiler samples the thread, in µs. */
const SAMPLING_US = 500;

/**
 * Frames left out of a stall's summary: the event loop's and Kysely's own machinery, which every
 * statement passes through and which says nothing about what ran.
 */
const MACHINERY =
  /^\((root|program|idle)\)|^(processTicksAndRejections|runMicrotasks|runNextTicks|processImmediate|processTimers|listOnTimeout) |kysely\/|^(executeQuery|provideConnection|#run) /;

/**
 * Runs `work` and answers its value and the `top` longest stalls of this thread's event loop
 * meanwhile that lasted `minMs` or more, longest first.
 */
export async function withStalls<T>(work: () => Promise<T>, { minMs = 30, top = 5 } = {}): Promise<[T, Stall[]]> {
  const session = new Session();
  session.connect();
  const gaps: Array<{ fromUs: number; toUs: number }> = [];
  let last = process.hrtime.bigint();
  const timer = setInterval(() => {
    const now = process.hrtime.bigint();
    if (Number(now - last) / 1e6 >= minMs + TICK_MS) gaps.push({ fromUs: Number(last / 1000n), toUs: Number(now / 1000n) });
    last = now;
  }, TICK_MS);
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: SAMPLING_US });
    await session.post('Profiler.start');
    last = process.hrtime.bigint();
    const value = await work();
    const { profile } = (await session.post('Profiler.stop')) as { profile: Profile };
    return [value, summarise(profile, gaps).slice(0, top)];
  } finally {
    clearInterval(timer);
    session.disconnect();
  }
}

/** Each gap's samples, summed by the frames on their stacks (each frame once per sample). */
function summarise(profile: Profile, gaps: Array<{ fromUs: number; toUs: number }>): Stall[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  // The profiler's clock is the monotonic one process.hrtime reads.
  const at: number[] = [];
  let time = profile.startTime;
  for (const delta of profile.timeDeltas) at.push((time += delta));
  return gaps
    .map(({ fromUs, toUs }) => {
      const inside = profile.samples.filter((_, i) => at[i] >= fromUs && at[i] <= toUs);
      const counts = new Map<string, number>();
      for (const sample of inside) {
        const seen = new Set<string>();
        for (let id: number | undefined = sample; id !== undefined; id = parent.get(id)) {
          const frame = frameName(byId.get(id)!);
          if (seen.has(frame) || MACHINERY.test(frame)) continue;
          seen.add(frame);
          counts.set(frame, (counts.get(frame) ?? 0) + 1);
        }
      }
      const frames = [...counts]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 8)
        .map(([frame, count]) => ({ frame, percent: Math.round((count * 100) / Math.max(1, inside.length)) }));
      return { ms: (toUs - fromUs) / 1000, samples: inside.length, frames };
    })
    .sort((a, b) => b.ms - a.ms);
}

/** A stall as lines of text: its length, then its frames with their shares. */
export function describeStall(stall: Stall): string {
  const frames = stall.frames.map(({ frame, percent }) => `    ${String(percent).padStart(3)} %  ${frame}`);
  return [`  ${stall.ms.toFixed(1)} ms (${stall.samples} samples):`, ...frames].join('\n');
}
