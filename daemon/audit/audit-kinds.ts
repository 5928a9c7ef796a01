export { AUDIT_KINDS, SYSTEM_AUDIT_KINDS, type AuditKind, type SystemAuditKind } from '../../contract/audit-kinds.js';
