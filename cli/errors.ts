/** Exit codes: 0 ok, 1 failure, 2 usage error, 3 partial (an import that skipped items under --strict). */
export const EXIT = { ok: 0, failure: 1, usage: 2, partial: 3 } as const;

/** A failure to report as one clear line, without a stack, and the exit code to end with. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failure,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export const usageError = (message: string): CliError => new CliError(message, EXIT.usage);
