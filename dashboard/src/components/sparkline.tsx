/**
 * A tiny line of recent response times as SVG (no inline style, so the dashboard's CSP holds);
 * the figures are also given in words to screen readers.
 */
export function Sparkline({ values, width = 80, height = 20 }: { values: readonly number[]; width?: number; height?: number }) {
  if (values.length < 2) return null;
  const max = Math.max(...values, 1);
  const step = width / (values.length - 1);
  const points = values.map((value, at) => `${(at * step).toFixed(1)},${(height - 1 - (value / max) * (height - 2)).toFixed(1)}`).join(' ');
  return (
    <svg
      class="sparkline"
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-label={`Recent response times: ${values.join(', ')} ms`}
    >
      <polyline points={points} fill="none" stroke="currentColor" stroke-width="1.5" />
    </svg>
  );
}
