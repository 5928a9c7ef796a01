import * as clack from '@clack/prompts';
import { CliError, usageError } from './errors.js';

/**
 * Interactive questions. Every prompt has a flag: with no TTY, or with --yes/--json, nothing is
 * asked and a missing answer is a usage error naming the flag to pass instead.
 */
export interface Prompts {
  readonly interactive: boolean;
  text(message: string, flag: string, options?: { initial?: string }): Promise<string>;
  password(message: string, flag: string): Promise<string>;
  confirm(message: string, flag: string): Promise<boolean>;
}

export function createPrompts(options: { yes: boolean; json: boolean }): Prompts {
  const interactive = Boolean(process.stdin.isTTY && process.stdout.isTTY) && !options.yes && !options.json;
  const answer = <T>(value: T | symbol): T => {
    if (clack.isCancel(value) || typeof value === 'symbol') throw new CliError('cancelled');
    return value;
  };
  const needFlag = (flag: string) => usageError(`${flag} is required when svc cannot ask (no terminal, --yes or --json)`);
  return {
    interactive,
    async text(message, flag, opts) {
      if (!interactive) throw needFlag(flag);
      return answer<string>(await clack.text({ message, initialValue: opts?.initial, validate: (v) => (v ? undefined : 'required') }));
    },
    async password(message, flag) {
      if (!interactive) throw needFlag(flag);
      return answer<string>(await clack.password({ message, validate: (v) => (v ? undefined : 'required') }));
    },
    async confirm(message, flag) {
      if (!interactive) throw needFlag(flag);
      return answer<boolean>(await clack.confirm({ message }));
    },
  };
}

/** Reads all of standard input (for --password-stdin and --stdin). */
export async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Standard input as lines: with --password-stdin the password is the first. */
export async function readStdinLines(): Promise<string[]> {
  return (await readStdin()).toString('utf8').split(/\r?\n/);
}

/** The password given on standard input (or asked for); an empty one is a usage error. */
export function requirePassword(password: string | undefined): string {
  if (!password) throw usageError('no password given on standard input');
  return password;
}

/** For --password-stdin: the password on the first line of standard input, which must not be empty. */
export async function readStdinPassword(): Promise<string> {
  return requirePassword((await readStdinLines())[0]);
}
