import { realpathSync } from 'node:fs';
import { join, sep } from 'node:path';
import { loadConfig } from './config/config.js';
import { ConfigError } from './config/config-error.js';
import { startDaemon } from './server.js';
import { exitOnUnhandledErrors } from './unhandled-errors.js';

// The URL the CLI talks to when given no --url or SVC_URL.
const DEFAULT_URL = 'http://localhost:4000';

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
  let daemon: Awaited<ReturnType<typeof startDaemon>> | undefined;
  const stopHandling = exitOnUnhandledErrors(() => daemon?.deps.logger);
  try {
    daemon = await startDaemon(config);
  } catch (error) {
    stopHandling();
    process.stderr.write(`svc daemon: could not start: ${(error as Error).message}\n`);
    return 1;
  }
  // The banner is for a person: it goes to stderr, so `svc daemon | jq` reads only log lines.
  const lines = [
    daemon.server
      ? `svc daemon listening on ${daemon.url} (database: ${daemon.deps.db.kind}); stop with Ctrl-C`
      : `svc daemon running checks only (database: ${daemon.deps.db.kind}); stop with Ctrl-C`,
  ];
  if (daemon.metricsUrl) lines.push(`Prometheus metrics at ${daemon.metricsUrl}`);
  if (daemon.createdAdmin) {
    const urlFlag = daemon.url === DEFAULT_URL.replace('localhost', '127.0.0.1') ? '' : ` --url ${daemon.url}`;
    lines.push(
      `First start: sign in as ${daemon.createdAdmin.email} with password "${daemon.createdAdmin.password}"`,
      `(you will be asked to change it): ${svcCommand()} login${urlFlag}`,
      `(the CLI talks to ${DEFAULT_URL} unless given --url or SVC_URL), or open ${daemon.url} in a browser.`,
    );
  }
  process.stderr.write(`${lines.join('\n')}\n`);
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      process.stderr.write(`svc daemon: ${signal} received, finishing requests under way (up to ${config.shutdownTimeoutSeconds} s)\n`);
      resolve();
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
  await daemon.close();
  stopHandling();
  return 0;
}

/**
 * How the person reading the banner runs the CLI: `svc` when it is installed as a package (its
 * entry point lives under node_modules, e.g. after `npm install -g`), `./bin/svc` from a checkout.
 */
function svcCommand(): string {
  const entry = process.argv[1] ?? '';
  let real = entry;
  try {
    real = realpathSync(entry);
  } catch {
    // not a file we can resolve: say the installed name
  }
  return real.split(sep).includes('node_modules') || entry === '' ? 'svc' : `.${sep}${join('bin', 'svc')}`;
}
