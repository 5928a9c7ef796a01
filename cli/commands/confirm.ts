import type { CommandDeps } from '../context.js';

/**
 * Whether to go ahead with a destructive step: yes with --yes, else the answer to `question`
 * (without a terminal, or with --json, that is a usage error naming --yes).
 */
export async function confirmed(question: string, deps: CommandDeps): Promise<boolean> {
  if (deps.globals.yes) return true;
  const sure = await deps.prompts.confirm(question, '--yes');
  if (!sure) deps.out.info('nothing changed');
  return sure;
}
