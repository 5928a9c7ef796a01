/**
 * Latency histograms of the hourly aggregates: twelve buckets with these upper bounds (ms); the
 * last is open-ended. Percentiles over long windows are read from merged histograms,
 * interpolated inside the bucket, which is close enough for uptime reports.
 */
export const BUCKET_BOUNDS = [10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000, 30_000, Infinity] as const;

export const BUCKET_COLUMNS = ['h0', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'h7', 'h8', 'h9', 'h10', 'h11'] as const;
export type BucketColumn = (typeof BUCKET_COLUMNS)[number];

/** The bucket a latency falls in. */
export function bucketOf(latencyMs: number): number {
  return BUCKET_BOUNDS.findIndex((bound) => latencyMs <= bound);
}

/** The `q` quantile (0..1) of a histogram, or null when it is empty. */
export function quantile(counts: readonly number[], q: number): number | null {
  const total = counts.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const rank = q * total;
  let seen = 0;
  for (let i = 0; i < counts.length; i++) {
    if (counts[i] === 0) continue;
    if (seen + counts[i] >= rank) {
      const lower = i === 0 ? 0 : BUCKET_BOUNDS[i - 1];
      const upper = Number.isFinite(BUCKET_BOUNDS[i]) ? BUCKET_BOUNDS[i] : lower * 2;
      return Math.round(lower + ((rank - seen) / counts[i]) * (upper - lower));
    }
    seen += counts[i];
  }
  return null;
}
