/**
 * Where the dashboard continues after sign-in: only a same-origin relative path is accepted
 * (`/checks?x=1`); anything else, including `//host`, `/\host` and what dot segments turn into
 * one (`/..//host`), becomes `/`. The check applies to the normalised path, which is what a
 * browser would follow.
 */
export function safeReturnTo(value: string | null | undefined): string {
  if (!value || value.length > 2000) return '/';
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  // Control characters and backslashes can be read as scheme or host separators by browsers.
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return '/';
  const base = 'http://svc.invalid';
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return '/';
  }
  if (url.origin !== base) return '/';
  // Checked again after normalising: `/..//host` resolves to `//host`, another origin to a browser.
  const normalised = `${url.pathname}${url.search}${url.hash}`;
  if (normalised.startsWith('//') || normalised.startsWith('/\\')) return '/';
  return normalised;
}
