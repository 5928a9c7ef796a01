import pino, { type Logger } from 'pino';
import { prettyStream } from './log-pretty.js';

export type { Logger };

/** `auto` is pretty on a terminal and JSON lines otherwise (a pipe, a file, a log collector). */
export type LogFormat = 'auto' | 'pretty' | 'json';

/**
 * The daemon's logger, on standard output unless given a destination. Paths that could carry a
 * secret are redacted, so a token or a password never reaches a log even when a whole request or
 * object is logged by mistake.
 */
export function createLogger(level: string, destination?: pino.DestinationStream, options: { format?: LogFormat; colour?: boolean } = {}): Logger {
  const format = options.format ?? 'json';
  const onTerminal = !destination && process.stdout.isTTY === true;
  const pretty = format === 'pretty' || (format === 'auto' && onTerminal);
  const target = pretty ? prettyStream(destination ?? process.stdout, onTerminal && options.colour !== false) : destination;
  return pino(
    {
      level,
      base: undefined,
      redact: {
        paths: [
          'password',
          '*.password',
          'currentPassword',
          'newPassword',
          'token',
          '*.token',
          'accessToken',
          'authorization',
          '*.authorization',
          'headers.authorization',
          'req.headers.authorization',
          'clientSecret',
          '*.clientSecret',
        ],
        censor: '[redacted]',
      },
    },
    target,
  );
}
