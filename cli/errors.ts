/** Exit codes: 0 ok, 1 failure, 2 usage error, 3 partial (an import under --strict that skipped items or left a setting out). */
export const EXIT = { ok: 0, failure: 1, usage: 2, partial: 3 } as const;

/** What `svc help exit-codes` prints; docs/cli.md says the same. */
export const EXIT_CODES_HELP = `Exit codes of svc:

  0  success (also when the reader of the output went away, as in svc checks list | head -1)
  1  failure: the daemon refused or failed (not found, forbidden, conflict, unreachable),
     or an input file is not valid
  2  usage error: an unknown command or flag, a missing or bad flag or argument value
     (whether svc or the daemon finds it bad), or a question svc cannot ask
     (no terminal, --yes or --json) and no flag to answer it
  3  partial: svc import --strict skipped items or left a setting out
`;

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
