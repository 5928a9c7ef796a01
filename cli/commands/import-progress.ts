/** Inputs at least this large get progress lines; small ones finish before a line would help. */
export const PROGRESS_MIN_BYTES = 1024 * 1024;

/** A one-line status on standard error, rewritten in place; a no-op when it should not show. */
export interface Progress {
  /** Sets the current step; the seconds spent on it tick after it. */
  step(text: string): void;
  /** `label: done/total`, for conversions that report their progress. */
  count(label: string, done: number, total: number): void;
  /** Clears the line, so what follows starts on a clean one. */
  done(): void;
}

const SILENT: Progress = { step() {}, count() {}, done() {} };

/**
 * Progress for large inputs, on a terminal only: never with --json or when standard error is
 * piped, where a carriage-return line would only be noise in a log.
 */
export function createProgress(options: { enabled: boolean; stream?: NodeJS.WriteStream }): Progress {
  const stream = options.stream ?? process.stderr;
  if (!options.enabled || !stream.isTTY) return SILENT;
  let text = '';
  let started = Date.now();
  let shown = false;
  const render = () => {
    const seconds = Math.floor((Date.now() - started) / 1000);
    stream.write(`\r\x1b[K${text}${seconds >= 1 ? ` (${seconds}s)` : ''}`);
    shown = true;
  };
  // Long steps (the daemon converting and writing) show the elapsed time, so it is clear the
  // command is still working.
  const timer = setInterval(() => text && render(), 1000);
  timer.unref();
  let lastCount = 0;
  return {
    step(next) {
      text = next;
      started = Date.now();
      render();
    },
    count(label, done, total) {
      const now = Date.now();
      if (done < total && now - lastCount < 100) return;
      lastCount = now;
      text = `${label}: ${done}/${total}`;
      render();
    },
    done() {
      clearInterval(timer);
      if (shown) stream.write('\r\x1b[K');
      shown = false;
      text = '';
    },
  };
}
