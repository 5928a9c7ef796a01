/**
 * Escapes a value for use inside an LDAP search filter (RFC 4515): `*`, `(`, `)`, `\` and NUL
 * become `\2a`, `\28`, `\29`, `\5c` and `\00`, so a user name such as `*)(uid=*` matches only
 * itself and can never widen or change the filter.
 */
export function escapeFilterValue(value: string): string {
  return value.replace(/[\\*()\0]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** Fills `{name}` placeholders of a configured filter with escaped values. */
export function fillFilter(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? escapeFilterValue(values[name]) : whole));
}
