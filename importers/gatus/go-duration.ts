// Gatus reads intervals, timeouts and certificate thresholds as Go durations.

const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};
const PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;

/**
 * Parses a Go duration (`30s`, `5m`, `1h30m`, `1.5h`, `300ms`, `0`) into milliseconds, or
 * undefined when `text` is not one. Negative durations are not durations Gatus accepts here.
 */
export function parseGoDuration(text: string): number | undefined {
  const source = text.trim().replace(/^\+/, '');
  if (source === '0') return 0;
  if (source === '') return undefined;
  let total = 0;
  PART.lastIndex = 0;
  while (PART.lastIndex < source.length) {
    const start = PART.lastIndex;
    const match = PART.exec(source);
    if (!match || match.index !== start) return undefined;
    total += Number(match[1]) * (UNIT_MS[match[2]] ?? Number.NaN);
  }
  return Number.isFinite(total) ? total : undefined;
}
