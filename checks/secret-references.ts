// How a check refers to an organization secret: `{{secrets.NAME}}`, in the fields that carry
// credentials. The check stores only the reference; the runner puts the value in at run time.

/** What a secret's name may be: an upper-case letter, then up to 63 upper-case letters, digits and "_". */
export const SECRET_NAME_PATTERN = /^[A-Z][A-Z0-9_]{0,63}$/;

/** The longest name SECRET_NAME_PATTERN allows. */
export const SECRET_NAME_MAX = 64;

const REFERENCE_SOURCE = String.raw`\{\{\s*secrets\.([A-Z][A-Z0-9_]{0,63})\s*\}\}`;

/** A whole field that is one reference, and nothing else. */
export const WHOLE_REFERENCE = new RegExp(`^${REFERENCE_SOURCE}$`);

/** A new global matcher of references (global regexes keep state, so each use gets its own). */
export const referenceMatcher = (): RegExp => new RegExp(REFERENCE_SOURCE, 'g');

/** The reference to the secret `name`. */
export const secretReference = (name: string): string => `{{secrets.${name}}}`;

/** Whether `text` contains at least one reference. */
export const containsReference = (text: string): boolean => referenceMatcher().test(text);

/** The names referred to anywhere in `value` (strings, arrays and objects, walked deeply), each once, sorted. */
export function referencedSecrets(value: unknown): string[] {
  const names = new Set<string>();
  const walk = (node: unknown): void => {
    if (typeof node === 'string') {
      if (!node.includes('{{')) return;
      for (const match of node.matchAll(referenceMatcher())) names.add(match[1]);
    } else if (Array.isArray(node)) node.forEach(walk);
    else if (node !== null && typeof node === 'object') Object.values(node).forEach(walk);
  };
  walk(value);
  return [...names].sort();
}

/**
 * A valid secret name made from free text (a check slug, a source's variable name): upper
 * case, anything else than letters and digits as "_", a leading letter, at most `max` long.
 */
export function secretNameFrom(text: string, max = SECRET_NAME_MAX): string {
  let name = text
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (!/^[A-Z]/.test(name)) name = `S_${name}`;
  return name.slice(0, max).replace(/_+$/, '');
}

/**
 * The stable name of the secret a check's field needs: the check slug and the field, e.g.
 * `ORDERS_DB_PASSWORD` for slug `orders-db` and field `PASSWORD`. The same check and field
 * always give the same name, so a re-run import refers to the same secret.
 */
export function checkSecretName(slug: string, field: string): string {
  const suffix = secretNameFrom(field);
  const prefix = secretNameFrom(slug, SECRET_NAME_MAX - suffix.length - 1);
  return `${prefix}_${suffix}`;
}
