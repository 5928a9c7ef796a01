import type { Kysely } from 'kysely';
import { newId } from '../db/ids.js';
import type { Database } from '../db/schema.js';
import type { Clock } from '../clock.js';
import { toPage } from '../http/pagination.js';
import type { AuditKind } from './audit-kinds.js';

/** One event to record. `data` must never hold a secret (no token, no password, no hash). */
export interface AuditEvent {
  organizationUid: string;
  kind: AuditKind;
  actorUid: string | null;
  targetUid?: string | null;
  data?: Record<string, unknown>;
}

let lastMs = 0;

/**
 * A time-ordered id that never goes backwards within this process: audit entries page newest
 * first by uid, so two events in the same millisecond must still keep their order.
 */
function auditId(): string {
  lastMs = Math.max(Date.now(), lastMs + 1);
  return newId(lastMs);
}

/**
 * Appends events to the audit log. Takes the query builder so that callers record inside the
 * transaction that made the change: the log never claims something that was rolled back.
 */
export async function recordAudit(db: Kysely<Database>, clock: Clock, ...events: AuditEvent[]): Promise<void> {
  if (events.length === 0) return;
  const createdAt = clock.now().toISOString();
  await db
    .insertInto('audit_log')
    .values(
      events.map((event) => ({
        uid: auditId(),
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
export async function recordAuditInUserOrganizations(db: Kysely<Database>, clock: Clock, userUid: string, event: Omit<AuditEvent, 'organizationUid'>): Promise<void> {
  const orgs = await db.selectFrom('members').select('organization_uid').where('user_uid', '=', userUid).execute();
  await recordAudit(db, clock, ...orgs.map((org) => ({ ...event, organizationUid: org.organization_uid })));
}

/** An entry as the API shows it. */
export interface AuditEntryView {
  uid: string;
  kind: string;
  actor: { uid: string; email: string | null } | null;
  target: { uid: string; email: string | null } | null;
  data: Record<string, unknown>;
  createdAt: string;
}

/** One page of an organization's audit log, newest first, optionally of some kinds only. */
export async function listAudit(
  db: Kysely<Database>,
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
  const rows = await query.orderBy('audit_log.uid', 'desc').limit(input.limit + 1).execute();
  return toPage(rows, input.limit, (row) => ({
    uid: row.uid,
    kind: row.kind,
    actor: row.actor_uid ? { uid: row.actor_uid, email: row.actor_email ?? null } : null,
    target: row.target_uid ? { uid: row.target_uid, email: row.target_email ?? null } : null,
    data: JSON.parse(row.data) as Record<string, unknown>,
    createdAt: row.created_at,
  }));
}
