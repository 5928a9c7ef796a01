import { NEW_PASSWORD_LENGTH } from '../contract/access.js';
import type { CommandDeps } from './context.js';

/** What is wrong with a candidate new password, by the daemon's own rule, or undefined. */
export function newPasswordProblem(password: string, current?: string): string | undefined {
  if (password.length < NEW_PASSWORD_LENGTH.min) return `the new password must be at least ${NEW_PASSWORD_LENGTH.min} characters`;
  if (password.length > NEW_PASSWORD_LENGTH.max) return `the new password must be at most ${NEW_PASSWORD_LENGTH.max} characters`;
  if (current !== undefined && password === current) return 'the new password must differ from the current one';
  return undefined;
}

/**
 * Asks for a new password on the terminal until one is acceptable and typed twice the same:
 * a too-short one, or a repetition that differs, is said in a line and asked again.
 */
export async function askNewPassword(deps: CommandDeps, current?: string): Promise<string> {
  for (;;) {
    const password = await deps.prompts.password(`New password (at least ${NEW_PASSWORD_LENGTH.min} characters)`, '--new-password-stdin');
    const problem = newPasswordProblem(password, current);
    if (problem) {
      deps.out.warn(`${problem}; try again`);
      continue;
    }
    const again = await deps.prompts.password('The new password again', '--new-password-stdin');
    if (again === password) return password;
    deps.out.warn('the two passwords differ; try again');
  }
}
