import { UPTIME_WINDOWS, type CheckResult, type Page, type Uptime } from '../../contract/index.js';
import type { CommandDeps } from '../context.js';
import { EXIT, usageError } from '../errors.js';
import { orgPath, resolveOrg } from './checks-org.js';

const checkPath = (org: string, slug: string) => `${orgPath(org)}/checks/${encodeURIComponent(slug)}`;

const statusText = (deps: CommandDeps, status: string) =>
  status === 'up' ? deps.out.color.green(status) : status === 'down' ? deps.out.color.red(status) : deps.out.color.yellow(status);

/** `svc checks results SLUG [--limit N] [--from T] [--to T]`: recent results, newest first. */
export async function results(options: { org?: string; args: string[]; limit?: string; from?: string; to?: string }, deps: CommandDeps): Promise<void> {
  const [slug] = options.args;
  const limit = options.limit === undefined ? 20 : Number(options.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw usageError(`--limit takes a whole number from 1 to 1000; got "${options.limit}"`);
  const org = await resolveOrg(options, deps);
  const page = await deps.client().get<Page<CheckResult>>(`${checkPath(org, slug)}/results`, {
    query: { limit: String(limit), from: options.from, to: options.to },
  });
  if (deps.out.jsonMode) return deps.out.json(page.items);
  if (page.items.length === 0) return deps.out.info(`no results for ${slug} yet`);
  deps.out.table(
    page.items.map((result) => ({ ...result, status: statusText(deps, result.status), latency: `${result.latencyMs} ms` })),
    [
      { key: 'at', title: 'AT' },
      { key: 'status', title: 'STATUS' },
      { key: 'latency', title: 'LATENCY' },
      { key: 'message', title: 'MESSAGE' },
    ],
  );
}

/** `svc checks uptime SLUG [--window 24h|7d|30d|90d]`: uptime and latency percentiles. */
export async function uptime(options: { org?: string; args: string[]; window?: string }, deps: CommandDeps): Promise<void> {
  const [slug] = options.args;
  const window = options.window ?? '24h';
  if (!(UPTIME_WINDOWS as readonly string[]).includes(window)) throw usageError(`--window takes 24h, 7d, 30d or 90d; got "${window}"`);
  const org = await resolveOrg(options, deps);
  const answer = await deps.client().get<Uptime>(`${checkPath(org, slug)}/uptime`, { query: { window } });
  if (deps.out.jsonMode) return deps.out.json(answer);
  const ms = (value: number | null) => (value === null ? '-' : `${value} ms`);
  deps.out.line(
    `${slug} over ${window}: ${answer.uptimePercent === null ? 'no runs' : `${answer.uptimePercent}% up`} (${answer.runs} runs, ${answer.downRuns} down)`,
  );
  deps.out.line(`latency p50 ${ms(answer.latencyP50Ms)}, p95 ${ms(answer.latencyP95Ms)}`);
}

/** `svc checks run SLUG`: runs the check now and prints the result; exit 1 when it is down. */
export async function run(options: { org?: string; args: string[] }, deps: CommandDeps): Promise<void | number> {
  const [slug] = options.args;
  const org = await resolveOrg(options, deps);
  const result = await deps.client().request<CheckResult>('POST', `${checkPath(org, slug)}/run`);
  if (deps.out.jsonMode) deps.out.json(result);
  else deps.out.line(`${slug}: ${statusText(deps, result.status)} in ${result.latencyMs} ms: ${result.message}`);
  return result.status === 'down' ? EXIT.failure : EXIT.ok;
}
