import { loadConfig } from './config/config.js';
import { ConfigError } from './config/config-error.js';
import { startDaemon } from './server.js';

/**
 * `svc daemon`: reads the configuration, starts, and stops cleanly on SIGINT/SIGTERM.
 * A configuration problem is one line naming the setting and a non-zero exit.
 */
export async function runDaemon(env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let config;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`svc daemon: configuration error: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
  let daemon;
  try {
    daemon = await startDaemon(config);
  } catch (error) {
    process.stderr.write(`svc daemon: could not start: ${(error as Error).message}\n`);
    return 1;
  }
  const lines = [`svc daemon listening on ${daemon.url} (database: ${daemon.deps.db.kind}); stop with Ctrl-C`];
  if (daemon.createdAdmin) {
    lines.push(
      `First start: sign in as ${daemon.createdAdmin.email} with password "${daemon.createdAdmin.password}"`,
      `(you will be asked to change it): svc login --url ${daemon.url}`,
    );
  }
  process.stdout.write(lines.join('\n') + '\n');
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await daemon.close();
  return 0;
}
