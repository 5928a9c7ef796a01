import type { CommandDeps } from '../context.js';
import { usageError } from '../errors.js';
import type { List, Revoked, SessionView } from '../../contract/index.js';

/** Long user agents would push every other column off the screen. */
const short = (text: string | null, max = 40) => (text && text.length > max ? `${text.slice(0, max - 1)}…` : (text ?? ''));

/** `svc account sessions`: the signed-in account's live sessions. */
export async function list(_options: unknown, deps: CommandDeps): Promise<void> {
  const { items } = await deps.client().get<List<SessionView>>('/auth/sessions');
  if (deps.out.jsonMode) return deps.out.json(items);
  if (items.length === 0) return deps.out.line('no live session');
  deps.out.table(
    items.map((s) => ({ ...s, current: s.current ? '*' : '', userAgent: short(s.userAgent) })),
    [
      { key: 'current', title: '' },
      { key: 'id', title: 'ID' },
      { key: 'method', title: 'METHOD' },
      { key: 'clientAddress', title: 'CLIENT' },
      { key: 'lastSeenAt', title: 'LAST SEEN' },
      { key: 'createdAt', title: 'CREATED' },
      { key: 'userAgent', title: 'USER AGENT' },
    ],
  );
  deps.out.info('* this session');
}

/** `svc account sessions revoke ID|--all`: ends one session, or every one but this. */
export async function revoke(options: { args: string[]; all?: boolean }, deps: CommandDeps): Promise<void> {
  const id = options.args[0];
  if (id && options.all) throw usageError('give a session ID or --all, not both');
  if (!id && !options.all) throw usageError('give the ID of the session to end (see svc account sessions), or --all to end every other one');
  const client = deps.client();
  if (options.all) {
    const { revoked } = await client.post<Revoked>('/auth/logout', undefined, { query: { all: 'true' } });
    if (deps.out.jsonMode) return deps.out.json({ revoked });
    return deps.out.success(`ended ${revoked} other session${revoked === 1 ? '' : 's'}; this one stays signed in`);
  }
  // Read first, only to tell whether the one ended is the session this CLI uses.
  const { items } = await client.get<List<SessionView>>('/auth/sessions');
  await client.request('DELETE', `/auth/sessions/${encodeURIComponent(id)}`);
  const wasCurrent = items.some((s) => s.id === id && s.current);
  if (deps.out.jsonMode) return deps.out.json({ revoked: 1, id, current: wasCurrent });
  deps.out.success(`session ${id} ended`);
  if (wasCurrent) deps.out.warn('that was the session of this CLI: sign in again with svc login');
}
