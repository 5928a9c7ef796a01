import { ProbeFailure } from './probe.js';

/** A short, safe message for any error: our own failures as they are, others by code and first line. */
export function failureMessage(error: unknown): string {
  if (error instanceof ProbeFailure) return error.message;
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    const firstLine = error.message.split('\n')[0] ?? '';
    if (code && firstLine.includes(code)) return firstLine;
    return code ? `${code}: ${firstLine}` : firstLine || error.name;
  }
  return String(error);
}
