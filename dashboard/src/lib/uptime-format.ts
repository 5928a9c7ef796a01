/** An uptime percent for people, always with two decimals ("99.95 %", "100.00 %"), or "no runs" when nothing ran. */
export const formatUptime = (percent: number | null | undefined): string => (percent === null || percent === undefined ? 'no runs' : `${percent.toFixed(2)} %`);

/** How long ago an ISO time was, in the largest whole unit. */
export function timeAgo(iso: string | null | undefined, nowMs = Date.now()): string {
  if (!iso) return 'never';
  const seconds = Math.max(0, Math.round((nowMs - Date.parse(iso)) / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  return `${Math.floor(seconds / 86_400)} d ago`;
}
