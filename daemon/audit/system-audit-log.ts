import type { Clock } from '../clock.js';
import { toPage } from '../http/pagination.js';
import { auditId, toAuditEntryView, type AuditEntryView } from './audit-log.js';
import type { SystemAuditKind } from './audit-kinds.js';
import type { Executor } from '../db/executor.js';

/** One event of the server's audit log. `data` must never hold a secret. */
export interface SystemAuditEvent {
  kind: SystemAuditKind;
  actorUid: string | null;
  targetUid?: string | null;
  /** The organization concerned; the entry outlives it. */
  organizationUid?: string | null;
  data?: Record<string, unknown>;
}

/**
 * Appends an event to the server's audit log, in the caller's transaction `db`, so that it is
 * written exactly when the change it records is.
 */
export async function recordSystemAudit(db: Executor, clock: Clock, event: SystemAuditEvent): Promise<void> {
  await db
    .insertInto('system_audit_log')
    .values({
      uid: auditId(clock),
      kind: event.kind,
      actor_uid: event.actorUid,
      target_uid: event.targetUid ?? null,
      organization_uid: event.organizationUid ?? null,
      data: JSON.stringify(event.data ?? {}),
      created_at: clock.now().toISOString(),
    })
    .execute();
}

/** An entry of the server's log: an organization's entry plus the organization concerned. */
export type SystemAuditEntryView = AuditEntryView & { organizationUid: string | null };

/** One page of the server's audit log, newest first, optionally of some kinds only. */
export async function listSystemAudit(
  db: Executor,
  input: { kinds: string[]; limit: number; cursor?: string },
): Promise<{ items: SystemAuditEntryView[]; nextCursor: string | null }> {
  let query = db
    .selectFrom('system_audit_log')
    .leftJoin('users as actor', 'actor.uid', 'system_audit_log.actor_uid')
    .leftJoin('users as target', 'target.uid', 'system_audit_log.target_uid')
    .selectAll('system_audit_log')
    .select(['actor.email as actor_email', 'target.email as target_email']);
  if (input.kinds.length > 0) query = query.where('system_audit_log.kind', 'in', input.kinds);
  if (input.cursor) query = query.where('system_audit_log.uid', '<', input.cursor);
  const rows = await query
    .orderBy('system_audit_log.uid', 'desc')
    .limit(input.limit + 1)
    .execute();
  return toPage(rows, input.limit, (row) => ({ ...toAuditEntryView(row), organizationUid: row.organization_uid }));
}
