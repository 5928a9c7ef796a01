import type { CommandDeps } from '../context.js';
import { usageError } from '../errors.js';
import { orgPath, resolveOrg } from './checks-org.js';
import type { Check, Page } from '../../contract/index.js';

interface ListOptions {
  org?: string;
  label?: string[];
  type?: string;
  state?: string;
  limit?: string;
}

const PAGE_SIZE = 500;

const labelText = (labels: Record<string, string>) =>
  Object.entries(labels)
    .map(([key, value]) => `${key}=${value}`)
    .join(',');

/** `svc checks list [--label k=v]... [--type T] [--limit N]`: every matching check, page by page. */
export async function list(options: ListOptions, deps: CommandDeps): Promise<void> {
  const labels = options.label ?? [];
  for (const label of labels) {
    if (!/^[^=]+=/.test(label)) throw usageError(`--label takes key=value; got "${label}"`);
  }
  let max = Infinity;
  if (options.limit !== undefined) {
    max = Number(options.limit);
    if (!Number.isInteger(max) || max < 1) throw usageError(`--limit takes a whole number of at least 1; got "${options.limit}"`);
  }
  const org = await resolveOrg(options, deps);
  const client = deps.client();
  const checks: Check[] = [];
  let cursor: string | null = null;
  do {
    const page: Page<Check> = await client.get<Page<Check>>(`${orgPath(org)}/checks`, {
      query: { label: labels, type: options.type, state: options.state, limit: String(Math.min(PAGE_SIZE, max - checks.length)), cursor: cursor ?? undefined },
    });
    checks.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor && checks.length < max);

  if (deps.out.jsonMode) return deps.out.json(checks);
  if (checks.length === 0) return deps.out.info(`no checks${labels.length || options.type || options.state ? ' match' : ''} in ${org}`);
  deps.out.table(
    checks.map((check) => ({
      ...check,
      interval: `${check.intervalSeconds}s`,
      state: check.state ?? (check.enabled ? 'enabled' : 'disabled'),
      last: check.lastResult ? `${check.lastResult.status} ${check.lastResult.latencyMs} ms` : '',
      labels: labelText(check.labels),
    })),
    [
      { key: 'slug', title: 'SLUG' },
      { key: 'type', title: 'TYPE' },
      { key: 'name', title: 'NAME' },
      { key: 'target', title: 'TARGET' },
      { key: 'interval', title: 'EVERY' },
      { key: 'state', title: 'STATE' },
      { key: 'last', title: 'LAST' },
      { key: 'labels', title: 'LABELS' },
    ],
  );
  deps.out.info(`${checks.length} check${checks.length === 1 ? '' : 's'}${cursor ? ' (more with a higher --limit)' : ''}`);
}

/** `svc checks get SLUG`: one check in full. */
export async function get(options: { org?: string; args: string[] }, deps: CommandDeps): Promise<void> {
  const [slug] = options.args;
  const org = await resolveOrg(options, deps);
  const check = await deps.client().get<Check>(`${orgPath(org)}/checks/${encodeURIComponent(slug)}`);
  if (deps.out.jsonMode) return deps.out.json(check);
  const { out } = deps;
  out.line(`${out.color.bold(check.name)} (${check.slug})  ${check.type}  ${check.enabled ? out.color.green('enabled') : out.color.yellow('disabled')}`);
  if (check.state) out.line(`state      ${check.state} since ${check.stateSince}`);
  if (check.lastResult)
    out.line(`last       ${check.lastResult.status} at ${check.lastResult.at}, ${check.lastResult.latencyMs} ms: ${check.lastResult.message}`);
  if (check.pingUrl) out.line(`ping URL   ${check.pingUrl}`);
  out.line(`target     ${check.target || '(none)'}`);
  out.line(`every      ${check.intervalSeconds}s`);
  out.line(`thresholds ${JSON.stringify(check.thresholds)}`);
  out.line(`labels     ${labelText(check.labels) || '(none)'}`);
  if (check.description) out.line(`about      ${check.description}`);
  out.line('config');
  for (const line of JSON.stringify(check.config, null, 2).split('\n')) out.line(`  ${line}`);
}

/** `svc checks delete SLUG`: asks first unless --yes (or --json, or no terminal: then --yes is required). */
export async function remove(options: { org?: string; args: string[] }, deps: CommandDeps): Promise<void> {
  const [slug] = options.args;
  const org = await resolveOrg(options, deps);
  if (!deps.globals.yes) {
    const sure = await deps.prompts.confirm(`Delete check ${slug} in ${org}?`, '--yes');
    if (!sure) return deps.out.info('nothing deleted');
  }
  await deps.client().request('DELETE', `${orgPath(org)}/checks/${encodeURIComponent(slug)}`);
  if (deps.out.jsonMode) return deps.out.json({ deleted: slug, org });
  deps.out.success(`deleted check ${slug}`);
}
