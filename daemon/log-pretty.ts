import { Writable } from 'node:stream';

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO ', 40: 'WARN ', 50: 'ERROR', 60: 'FATAL' };
const COLOURS: Record<number, string> = { 40: '\x1b[33m', 50: '\x1b[31m', 60: '\x1b[31m' };

/** One readable line for one JSON log record: time, level, message, then the other fields as key=value. */
export function formatPretty(line: string, colour: boolean): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const { level, time, msg, err, ...fields } = record;
  const at = typeof time === 'number' ? new Date(time).toISOString().slice(11, 23) : '';
  const levelName = LEVELS[level as number] ?? String(level);
  const tint = colour ? (COLOURS[level as number] ?? '') : '';
  const parts = Object.entries(fields).map(([key, value]) => `${key}=${typeof value === 'string' && !/\s/.test(value) ? value : JSON.stringify(value)}`);
  const head = `${at} ${tint}${levelName}${tint ? '\x1b[0m' : ''} ${msg ?? ''}`;
  const stack = err && typeof err === 'object' && 'stack' in err ? `\n${String((err as { stack: unknown }).stack)}` : '';
  return `${head}${parts.length ? `  ${parts.join(' ')}` : ''}${stack}`;
}

/** A destination for pino that writes each record as one readable line (for a terminal). */
export function prettyStream(out: { write(text: string): unknown }, colour: boolean): Writable {
  return new Writable({
    write(chunk, _encoding, done) {
      const text = chunk
        .toString()
        .split('\n')
        .filter(Boolean)
        .map((line: string) => formatPretty(line, colour))
        .join('\n');
      out.write(`${text}\n`);
      done();
    },
  });
}
