import type { ChannelDelivery as Delivery, ChannelTestResult, NotificationChannel as Channel, Page } from '../../contract/index.js';
import { readFileSync } from 'node:fs';
import type { CommandDeps } from '../context.js';
import { usageError } from '../errors.js';
import { orgPath, resolveOrg } from './checks-org.js';

const channelPath = (org: string, uid: string) => `${orgPath(org)}/notification-channels/${encodeURIComponent(uid)}`;

/** `svc channels list`: the organization's notification channels, secrets masked. */
export async function list(options: { org?: string }, deps: CommandDeps): Promise<void> {
  const org = await resolveOrg(options, deps);
  const client = deps.client();
  const channels: Channel[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.get<Page<Channel>>(`${orgPath(org)}/notification-channels`, { query: { limit: '200', cursor } });
    channels.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  if (deps.out.jsonMode) return deps.out.json(channels);
  if (channels.length === 0) return deps.out.info(`no notification channels in ${org}`);
  deps.out.table(
    channels.map((c) => ({ ...c, isDefault: c.default ? 'yes' : '' })),
    [
      { key: 'uid', title: 'UID' },
      { key: 'type', title: 'TYPE' },
      { key: 'name', title: 'NAME' },
      { key: 'isDefault', title: 'DEFAULT' },
    ],
  );
}

/** Reads `--config` (JSON text) or `--config-file` (a JSON file, which keeps secrets out of the process list). */
function readConfig(options: { config?: string; configFile?: string }): Record<string, unknown> {
  if (options.config !== undefined && options.configFile !== undefined) throw usageError('pass --config or --config-file, not both');
  const text = options.configFile !== undefined ? readFileSync(options.configFile, 'utf8') : options.config;
  if (text === undefined) throw usageError('pass the channel settings with --config \'{"url": "..."}\' or --config-file FILE');
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw usageError('the channel settings must be a JSON object');
}

/** `svc channels create --name N --type T --config JSON [--default]`. */
export async function create(
  options: { org?: string; name: string; type: string; config?: string; configFile?: string; default?: boolean },
  deps: CommandDeps,
): Promise<void> {
  const config = readConfig(options);
  const org = await resolveOrg(options, deps);
  const channel = await deps
    .client()
    .post<Channel>(`${orgPath(org)}/notification-channels`, { name: options.name, type: options.type, config, default: Boolean(options.default) });
  if (deps.out.jsonMode) return deps.out.json(channel);
  deps.out.success(`created ${channel.type} channel "${channel.name}" (${channel.uid})${channel.default ? ', a default channel' : ''}`);
}

/** `svc channels test UID`: sends a test message and prints the result; fails when it did not arrive. */
export async function test(options: { org?: string; args: string[] }, deps: CommandDeps): Promise<void> {
  const [uid] = options.args;
  const org = await resolveOrg(options, deps);
  const result = await deps.client().post<ChannelTestResult>(`${channelPath(org, uid)}/test`);
  if (deps.out.jsonMode) deps.out.json(result);
  else if (result.ok) deps.out.success(`test message delivered${result.responseCode ? ` (${result.responseCode})` : ''}`);
  else deps.out.warn(`test message not delivered: ${result.error}`);
  if (!result.ok) process.exitCode = 1;
}

/** `svc channels deliveries UID [--limit N]`: the channel's delivery log, newest first. */
export async function deliveries(options: { org?: string; args: string[]; limit?: string }, deps: CommandDeps): Promise<void> {
  const [uid] = options.args;
  const limit = options.limit ?? '50';
  if (!/^\d+$/.test(limit) || Number(limit) < 1 || Number(limit) > 200) throw usageError(`--limit takes a whole number from 1 to 200; got "${limit}"`);
  const org = await resolveOrg(options, deps);
  const page = await deps.client().get<Page<Delivery>>(`${channelPath(org, uid)}/deliveries`, { query: { limit } });
  if (deps.out.jsonMode) return deps.out.json(page.items);
  if (page.items.length === 0) return deps.out.info('no deliveries yet');
  deps.out.table(
    page.items.map((d) => ({ ...d, code: d.responseCode ?? '', error: d.error ?? '' })),
    [
      { key: 'createdAt', title: 'CREATED' },
      { key: 'event', title: 'EVENT' },
      { key: 'status', title: 'STATUS' },
      { key: 'attempts', title: 'ATTEMPTS' },
      { key: 'code', title: 'CODE' },
      { key: 'error', title: 'ERROR' },
    ],
  );
}
