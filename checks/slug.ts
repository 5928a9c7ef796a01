/** What a check slug looks like: it appears in URLs and is how imports match existing checks. */
export const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** The slug used when a name has nothing that survives slugification (e.g. only punctuation). */
export const FALLBACK_SLUG = 'check';

const MAX_SLUG_LENGTH = 63;

// Letters that Unicode decomposition leaves alone but that have an obvious ASCII spelling;
// without these "Straße" would become "stra-e".
const TRANSLITERATIONS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  ł: 'l',
  þ: 'th',
  ı: 'i',
};

/**
 * Derives a slug from a human name: lowercase ASCII letters and digits, every other run of
 * characters becomes one dash, no leading or trailing dash, at most 63 characters, never
 * empty (falls back to `check`). Deterministic, so re-running an import derives the same slug
 * and matches the check it created before.
 */
export function slugify(name: string): string {
  // Printable ASCII has no decomposition and no letter to spell out: most names take this path.
  const ascii = /^[ -~]*$/.test(name)
    ? name.toLowerCase()
    : name
        .normalize('NFKD')
        .toLowerCase()
        .replace(/[\u0300-\u036f]/g, '')
        .replace(/[ßæœøđðłþı]/g, (letter) => TRANSLITERATIONS[letter] ?? '-');
  const slug = ascii
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/-+$/, '');
  return slug === '' ? FALLBACK_SLUG : slug;
}
