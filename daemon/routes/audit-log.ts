import { AUDIT_KINDS } from '../audit/audit-kinds.js';
import { listAudit } from '../audit/audit-log.js';
import { validationFailed } from '../errors.js';
import { parsePage } from '../http/pagination.js';
import { route, type RouteSpec } from '../http/route.js';

/** The organization's audit log (admins). */
export const auditLogRoutes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/orgs/:org/audit-log',
    permission: 'audit-log:read',
    response: 'AuditEntryPage',
    summary: 'Audit entries newest first; ?kind= (repeatable or comma-separated), ?limit=, ?cursor=.',
    handler: async ({ deps, auth, query }) =>
      listAudit(deps.db.kysely, { organizationUid: auth.org.uid, kinds: kindsQuery(query, AUDIT_KINDS), ...parsePage(query) }),
  }),
];

/** The `?kind=` filter of an audit listing (repeatable or comma-separated); 400 for a kind not in `known`. */
export function kindsQuery(query: URLSearchParams, known: readonly string[]): string[] {
  const kinds = query
    .getAll('kind')
    .flatMap((k) => k.split(','))
    .map((k) => k.trim())
    .filter(Boolean);
  const unknown = kinds.filter((k) => !known.includes(k));
  if (unknown.length > 0) {
    throw validationFailed([{ path: 'kind', message: `unknown kind ${unknown.join(', ')}; known: ${known.join(', ')}` }], 'The query is not valid.');
  }
  return kinds;
}
