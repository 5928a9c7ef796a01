import { SYSTEM_AUDIT_KINDS } from '../audit/audit-kinds.js';
import { listSystemAudit } from '../audit/system-audit-log.js';
import { parsePage } from '../http/pagination.js';
import { kindsQuery } from './audit-log.js';
import { route, type RouteSpec } from '../http/route.js';

/** The server's audit log (super admins): what outlives or stands above one organization. */
export const systemAuditLogRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/system/audit-log',
    permission: 'superAdmin',
    response: 'SystemAuditEntryPage',
    summary: "The server's audit entries (organization deletions, ownership granted by a super admin) newest first; ?kind=, ?limit=, ?cursor=.",
    handler: async ({ deps, query }) => listSystemAudit(deps.db.kysely, { kinds: kindsQuery(query, SYSTEM_AUDIT_KINDS), ...parsePage(query) }),
  }),
];
