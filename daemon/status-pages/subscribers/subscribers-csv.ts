import type { Subscriber } from '../../../contract/status-pages.js';

/** A CSV field per RFC 4180, with a leading formula character defused for spreadsheets. */
function field(value: string | null): string {
  if (value === null) return '';
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The export as CSV (RFC 4180, CRLF line ends), with a header line. */
export function subscribersCsv(subscribers: Subscriber[]): string {
  const lines = [['uid', 'email', 'confirmed_at', 'created_at'], ...subscribers.map((s) => [s.uid, s.email, s.confirmedAt, s.createdAt])];
  return `${lines.map((line) => line.map(field).join(',')).join('\r\n')}\r\n`;
}
