const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

/**
 * Checks an enterprise cloud directory tenant: a directory GUID, a verified domain, `common`,
 * `organizations` or `consumers` (empty means `common`). Returns what is wrong, or undefined.
 */
export function validateTenant(tenant: string): string | undefined {
  if (tenant === '' || ['common', 'organizations', 'consumers'].includes(tenant)) return undefined;
  if (GUID.test(tenant) || DOMAIN.test(tenant)) return undefined;
  return `expected a directory GUID, a verified domain, common, organizations or consumers, got ${JSON.stringify(tenant)}`;
}
