import pino, { type Logger } from 'pino';

export type { Logger };

/**
 * The daemon's logger: JSON lines. Paths that could carry a secret are redacted, so a token or a
 * password never reaches a log even when a whole request or object is logged by mistake.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      redact: {
        paths: [
          'password', '*.password', 'currentPassword', 'newPassword', 'token', '*.token', 'accessToken',
          'authorization', '*.authorization', 'headers.authorization', 'req.headers.authorization', 'clientSecret', '*.clientSecret',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
