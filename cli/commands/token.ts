import type { CommandDeps } from '../context.js';
import { usageError } from '../errors.js';
import { SCOPES, type List, type MintedToken, type TokenView } from '../../contract/index.js';
import { resolveOrg } from './checks-org.js';

interface CreateOptions {
  name?: string;
  org?: string;
  scope?: string[];
  expires?: string;
}

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** `30d`, `12h`, `90m`, `2w`, or an ISO-8601 date and time; `never` for no expiry. */
export function parseExpiry(text: string, now = Date.now()): string | null {
  if (text === 'never') return null;
  const match = /^(\d+)\s*([mhdw])$/.exec(text.trim());
  if (match) {
    const ms = Number(match[1]) * UNITS[match[2]];
    if (ms <= 0) throw usageError('--expires must be in the future');
    return new Date(now + ms).toISOString();
  }
  const at = Date.parse(text);
  if (/^\d{4}-\d{2}-\d{2}/.test(text) && !Number.isNaN(at)) return new Date(at).toISOString();
  throw usageError(`--expires takes a duration such as 30d, 12h, 90m or 2w, a date such as 2026-12-31, or never; got "${text}"`);
}

/** `svc token create --name N [--org O] [--scope S]... [--expires 30d]`: the secret is printed once. */
export async function create(options: CreateOptions, deps: CommandDeps): Promise<void> {
  if (!options.name) throw usageError('--name is required');
  const scopes = (options.scope ?? [])
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0) throw usageError(`unknown scope ${unknown.join(', ')}; choose from ${SCOPES.join(', ')}`);
  const expiresAt = options.expires ? parseExpiry(options.expires) : null;
  // A token belongs to one organization: the chosen one, else the account's only one.
  const org = await resolveOrg(options, deps);
  const minted = await deps.client().post<MintedToken>('/auth/tokens', {
    name: options.name,
    org,
    ...(scopes.length > 0 ? { scopes: [...new Set(scopes)] } : {}),
    expiresAt,
  });
  if (deps.out.jsonMode) return deps.out.json(minted);
  deps.out.success(
    `token "${minted.name}" (${minted.uid}) created for ${minted.org}: scopes ${minted.scopes.join(', ')}, ${minted.expiresAt ? `expires ${minted.expiresAt}` : 'no expiry'}`,
  );
  deps.out.warn('this is the only time the token is shown: store it now');
  deps.out.line(minted.token);
}

/** `svc token list`: the caller's tokens. */
export async function list(_options: unknown, deps: CommandDeps): Promise<void> {
  const { items } = await deps.client().get<List<TokenView>>('/auth/tokens');
  if (deps.out.jsonMode) return deps.out.json(items);
  if (items.length === 0) return deps.out.info('no access tokens (create one with svc token create)');
  deps.out.table(
    items.map((t) => ({ ...t, scopes: t.scopes.join(','), expiresAt: t.expiresAt ?? 'never', lastUsedAt: t.lastUsedAt ?? 'never' })),
    [
      { key: 'uid', title: 'UID' },
      { key: 'name', title: 'NAME' },
      { key: 'org', title: 'ORGANIZATION' },
      { key: 'scopes', title: 'SCOPES' },
      { key: 'expiresAt', title: 'EXPIRES' },
      { key: 'lastUsedAt', title: 'LAST USED' },
    ],
  );
}

/** `svc token revoke UID`: the token stops working at once. */
export async function revoke(options: { args: string[] }, deps: CommandDeps): Promise<void> {
  const [uid] = options.args;
  await deps.client().request('DELETE', `/auth/tokens/${encodeURIComponent(uid)}`);
  if (deps.out.jsonMode) return deps.out.json({ revoked: uid });
  deps.out.success(`token ${uid} revoked`);
}
