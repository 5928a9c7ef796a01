import { useEffect, useRef } from 'preact/hooks';
import type { CheckResult } from '../api/types';
import { plural } from '../lib/format';
// uPlot's own rules as a stylesheet file: the CSP allows no inline styles.
import 'uplot/dist/uPlot.min.css';

/**
 * Response times of a check's results as a uPlot line chart (canvas; uPlot is loaded only on the
 * pages that draw one, with its stylesheet as a file, since the CSP allows no inline styles).
 * Down runs are drawn as gaps in the line and marked as red points on the axis, so an outage reads
 * as a break with its runs shown. Without a successful run there is no response time to draw; one
 * point is shown on an hour around it rather than on uPlot's guess of a range.
 */
export function ResponseChart({ results }: { results: readonly CheckResult[] }) {
  const holder = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = holder.current;
    if (!element || !results.some((r) => r.status !== 'down')) return;
    let chart: { destroy(): void; setSize(size: { width: number; height: number }): void } | undefined;
    let cancelled = false;
    const ordered = [...results].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
    const xs = ordered.map((r) => Date.parse(r.at) / 1000);
    const ys = ordered.map((r) => (r.status === 'down' ? null : r.latencyMs));
    const downs = ordered.map((r) => (r.status === 'down' ? 0 : null));
    const highest = Math.max(...ys.map((y) => y ?? 0));
    const width = () => Math.max(240, element.clientWidth);
    void import('uplot').then(({ default: UPlot }) => {
      if (cancelled) return;
      chart = new UPlot(
        {
          width: width(),
          height: 220,
          series: [
            {},
            { label: 'Response (ms)', stroke: '#1f5fbf', width: 1.5, spanGaps: false, points: { show: ordered.length < 60 } },
            { label: 'Down', stroke: '#c0362c', width: 0, paths: () => null, points: { show: true, size: 8, fill: '#c0362c', stroke: '#c0362c' } },
          ],
          axes: [{}, { label: 'ms' }],
          scales: {
            // Half an hour either side when all runs share one moment; otherwise the runs' own span.
            x: { time: true, range: (_u: unknown, min: number, max: number) => (max - min < 60 ? [min - 1800, max + 1800] : [min, max]) },
            y: { range: (_u: unknown, _min: number, max: number) => [0, Math.max(10, max, highest) * 1.1] },
          },
        },
        [xs, ys, downs],
        element,
      );
      element.dataset.drawn = 'true';
      element.dataset.downRuns = String(downs.filter((d) => d !== null).length);
      const x = (chart as unknown as { scales: { x: { min: number; max: number } } }).scales.x;
      element.dataset.spanSeconds = String(Math.round(x.max - x.min));
    });
    const onResize = () => chart?.setSize({ width: width(), height: 220 });
    window.addEventListener('resize', onResize);
    return () => {
      cancelled = true;
      window.removeEventListener('resize', onResize);
      chart?.destroy();
    };
  }, [results]);
  const downRuns = results.filter((r) => r.status === 'down').length;
  if (!results.some((r) => r.status !== 'down')) {
    return <p class="chart-empty">No data yet: no successful run to chart{downRuns ? ` (${plural(downRuns, 'down run')} so far)` : ''}.</p>;
  }
  const label = `Response times of the latest ${plural(results.length, 'run')}${downRuns ? `, ${plural(downRuns, 'down run')} marked in red` : ''}`;
  return <div class="response-chart" ref={holder} role="img" aria-label={label} />;
}
