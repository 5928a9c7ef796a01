// Prometheus and the exporter write durations as `30s`, `1m30s`, `500ms`, `1d`: Prometheus'
// own duration syntax (units ms, s, m, h, d, w, y, largest first), which the exporter's Go
// `time.Duration` fields also accept for the units they share.

const UNIT_MS: Record<string, number> = {
  y: 365 * 86_400_000,
  w: 7 * 86_400_000,
  d: 86_400_000,
  h: 3_600_000,
  m: 60_000,
  s: 1000,
  ms: 1,
  us: 1e-3,
  µs: 1e-3,
  ns: 1e-6,
};
const PART = /(\d+(?:\.\d+)?)(ms|us|µs|ns|y|w|d|h|m|s)/y;

/** Milliseconds of a duration such as `15s` or `1m30s`; undefined when `text` is not one. */
export function parseDuration(text: string): number | undefined {
  const source = text.trim();
  if (source === '0') return 0;
  if (source === '') return undefined;
  let total = 0;
  PART.lastIndex = 0;
  while (PART.lastIndex < source.length) {
    const start = PART.lastIndex;
    const match = PART.exec(source);
    if (!match || match.index !== start) return undefined;
    total += Number(match[1]) * UNIT_MS[match[2]];
  }
  return Number.isFinite(total) ? total : undefined;
}
