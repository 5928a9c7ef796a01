import type { Logger } from './log.js';

/** The exit code of a daemon stopped by an error nothing handled: non-zero, so a supervisor (systemd's Restart=on-failure) starts it again. */
export const UNHANDLED_ERROR_EXIT_CODE = 1;

/**
 * Makes an error nothing handled (an `error` event without a listener, a rejected promise
 * nobody awaited) end the daemon with one line in its own log instead of a stack trace on
 * stderr: what failed (the error's name, code and message; never its stack, which names files
 * and can carry values) and where it came from. The process is in a state nobody planned for,
 * so it exits at once with UNHANDLED_ERROR_EXIT_CODE for its supervisor to start it afresh; runs
 * and deliveries under way are taken up again from the database. `logger()` is the daemon's
 * logger once it has one, undefined while it starts. Answers a function that removes the handler.
 */
export function exitOnUnhandledErrors(logger: () => Logger | undefined): () => void {
  const onError = (error: unknown, origin: NodeJS.UncaughtExceptionOrigin) => {
    const described = describe(error);
    const log = logger();
    if (log) log.fatal({ ...described, origin }, 'daemon: an error nothing handled; exiting for the supervisor to restart it');
    else process.stderr.write(`svc daemon: an error nothing handled (${origin}): ${described.err}\n`);
    process.exit(UNHANDLED_ERROR_EXIT_CODE);
  };
  process.on('uncaughtException', onError);
  return () => process.off('uncaughtException', onError);
}

function describe(error: unknown): { err: string; name?: string; code?: string } {
  if (!(error instanceof Error)) return { err: String(error) };
  const { code } = error as { code?: unknown };
  return { err: error.message, name: error.name, ...(typeof code === 'string' ? { code } : {}) };
}
