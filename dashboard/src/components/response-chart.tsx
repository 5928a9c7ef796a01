import { useEffect, useRef } from 'preact/hooks';
import type { CheckResult } from '../api/types';
// uPlot's own rules as a stylesheet file: the CSP allows no inline styles.
import 'uplot/dist/uPlot.min.css';

/**
 * Response times of a check's results as a uPlot line chart (canvas; uPlot is loaded only on the
 * pages that draw one, with its stylesheet as a file, since the CSP allows no inline styles).
 * Down runs are drawn as gaps, so an outage reads as a break in the line.
 */
export function ResponseChart({ results }: { results: readonly CheckResult[] }) {
  const holder = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = holder.current;
    if (!element || results.length === 0) return;
    let chart: { destroy(): void; setSize(size: { width: number; height: number }): void } | undefined;
    let cancelled = false;
    const ordered = [...results].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
    const xs = ordered.map((r) => Date.parse(r.at) / 1000);
    const ys = ordered.map((r) => (r.status === 'down' ? null : r.latencyMs));
    const width = () => Math.max(240, element.clientWidth);
    void import('uplot').then(({ default: UPlot }) => {
      if (cancelled) return;
      chart = new UPlot(
        {
          width: width(),
          height: 220,
          series: [{}, { label: 'Response (ms)', stroke: '#1f5fbf', width: 1.5, spanGaps: false, points: { show: ordered.length < 60 } }],
          axes: [{}, { label: 'ms' }],
          scales: { x: { time: true } },
        },
        [xs, ys],
        element,
      );
      element.dataset.drawn = 'true';
    });
    const onResize = () => chart?.setSize({ width: width(), height: 220 });
    window.addEventListener('resize', onResize);
    return () => {
      cancelled = true;
      window.removeEventListener('resize', onResize);
      chart?.destroy();
    };
  }, [results]);
  if (results.length === 0) return <p>No results yet to chart.</p>;
  return <div class="response-chart" ref={holder} role="img" aria-label={`Response times of the latest ${results.length} runs`} />;
}
