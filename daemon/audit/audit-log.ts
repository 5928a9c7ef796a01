import { newId } from '../db/ids.js';
import type { Clock } from '../clock.js';
import { toPage } from '../http/pagination.js';
import type { AuditKind } from './audit-kinds.js';
import type { AuditEntry as ContractAuditEntry } from '../../contract/responses.js';
import type { Executor } from '../db/executor.js';

/** One event to record. `data` must never hold a secret (no token, no password, no hash). */
export interface AuditEvent {
  organizationUid: string;
  kind: AuditKind;
  actorUid: string | null;
  targetUid?: string | null;
  data?: Record<string, unknown>;
}

// The last id time given out per clock: kept with the injected clock, so apps with different
// clocks (tests with a manual one) never push each other's ids forward.
const lastMsOf = new WeakMap<Clock, number>();

/**
 * A time-ordered id from the injected clock that never goes backwards for that clock: audit
 * entries page newest first by uid, so two events in the same millisecond must still keep their order.
 */
export function auditId(clock: Clock): string {
  const ms = Math.max(clock.now().getTime(), (lastMsOf.get(clock) ?? 0) + 1);
  lastMsOf.set(clock, ms);
  return newId(ms);
}

/**
 * Appends events to the audit log. Takes the query builder so that callers record inside the
 * transaction that made the change: the log never claims something that was rolled back.
 */
export async function recordAudit(db: Executor, clock: Clock, ...events: AuditEvent[]): Promise<void> {
  if (events.length === 0) return;
  const createdAt = clock.now().toISOString();
  await db
    .insertInto('audit_log')
    .values(
      events.map((event) => ({
        uid: auditId(clock),
        organization_uid: event.organizationUid,
        kind: event.kind,
        actor_uid: event.actorUid,
        target_uid: event.targetUid ?? null,
        data: JSON.stringify(event.data ?? {}),
        created_at: createdAt,
      })),
    )
    .execute();
}

/**
 * Records one event in the audit log of every organization the user belongs to, in the
 * transaction `db` (see recordAudit).
 */
export async function recordAuditInUserOrganizations(db: Executor, clock: Clock, userUid: string, event: Omit<AuditEvent, 'organizationUid'>): Promise<void> {
  const orgs = await db.selectFrom('members').select('organization_uid').where('user_uid', '=', userUid).execute();
  await recordAudit(db, clock, ...orgs.map((org) => ({ ...event, organizationUid: org.organization_uid })));
}

/** An entry as the API shows it. */
export type AuditEntryView = ContractAuditEntry;

/** One page of an organization's audit log, newest first, optionally of some kinds only. */
export async function listAudit(
  db: Executor,
  input: { organizationUid: string; kinds: string[]; limit: number; cursor?: string },
): Promise<{ items: AuditEntryView[]; nextCursor: string | null }> {
  let query = db
    .selectFrom('audit_log')
    .leftJoin('users as actor', 'actor.uid', 'audit_log.actor_uid')
    .leftJoin('users as target', 'target.uid', 'audit_log.target_uid')
    .select(['audit_log.uid', 'audit_log.kind', 'audit_log.actor_uid', 'audit_log.target_uid', 'audit_log.data', 'audit_log.created_at'])
    .select(['actor.email as actor_email', 'target.email as target_email'])
    .where('audit_log.organization_uid', '=', input.organizationUid);
  if (input.kinds.length > 0) query = query.where('audit_log.kind', 'in', input.kinds);
  if (input.cursor) query = query.where('audit_log.uid', '<', input.cursor);
  const rows = await query
    .orderBy('audit_log.uid', 'desc')
    .limit(input.limit + 1)
    .execute();
  return toPage(rows, input.limit, toAuditEntryView);
}

/** An audit row, with its actor's and target's current addresses, as the API shows it. */
export function toAuditEntryView(row: {
  uid: string;
  kind: string;
  actor_uid: string | null;
  target_uid: string | null;
  actor_email: string | null;
  target_email: string | null;
  data: string;
  created_at: string;
}): AuditEntryView {
  return {
    uid: row.uid,
    kind: row.kind,
    actor: row.actor_uid ? { uid: row.actor_uid, email: row.actor_email ?? null } : null,
    target: row.target_uid ? { uid: row.target_uid, email: row.target_email ?? null } : null,
    data: JSON.parse(row.data) as Record<string, unknown>,
    createdAt: row.created_at,
  };
}
