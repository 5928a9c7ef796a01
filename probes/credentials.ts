/**
 * The password a check signs in with. Checks carry it as a `{{secrets.NAME}}` reference in a
 * `password` field beside `username`; the runner substitutes the value before the probe runs,
 * so a probe reads a plain string here. Absent when the check signs in without one.
 */
export function passwordOf(credentials: object | undefined): string | undefined {
  const password = (credentials as { password?: unknown } | undefined)?.password;
  return typeof password === 'string' && password !== '' ? password : undefined;
}
