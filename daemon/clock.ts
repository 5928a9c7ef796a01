/** The source of "now", injectable so that expiries are tested without sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that stands still until moved: `clock.advance(61_000)`. */
export function manualClock(start = new Date('2026-01-01T00:00:00Z')): Clock & { advance(ms: number): void; set(at: Date): void } {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance: (ms) => {
      current += ms;
    },
    set: (at) => {
      current = at.getTime();
    },
  };
}

/** ISO-8601 text of `now` plus an offset in seconds, as stored in the database. */
export const isoIn = (clock: Clock, seconds = 0): string => new Date(clock.now().getTime() + seconds * 1000).toISOString();
