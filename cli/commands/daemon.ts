import type { CommandDeps } from '../context.js';

/** `svc daemon`: runs the API daemon in the foreground until SIGINT/SIGTERM. */
export async function run(_options: unknown, deps: CommandDeps): Promise<number> {
  const { runDaemon } = await import('../../daemon/main.js');
  return runDaemon(deps.env);
}
