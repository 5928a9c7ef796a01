/** One date format everywhere: the reader's locale, to the minute, with the time zone named. */
const DATE_FORMAT: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' };

/** Dates as the reader's locale shows them, with the time zone; the ISO string on hover. */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, DATE_FORMAT);
}

/** A count with its noun, singular for one: "1 run", "3 runs", "1 failure". */
export const plural = (count: number, noun: string, nouns = `${noun}s`): string => `${count} ${count === 1 ? noun : nouns}`;
