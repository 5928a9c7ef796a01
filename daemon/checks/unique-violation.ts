/**
 * Whether a database error is a unique-constraint violation, on either engine: PostgreSQL's
 * SQLSTATE 23505 or SQLite's SQLITE_CONSTRAINT_UNIQUE / _PRIMARYKEY. Lets a write that lost a
 * race for a slug answer 409 instead of 500.
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
