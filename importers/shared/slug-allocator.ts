import { SLUG_PATTERN, slugify } from '../../checks/index.js';

const MAX_SLUG_LENGTH = 63;

/**
 * Hands out the slugs of one import. A name becomes a slug with the catalog's `slugify`; a
 * slug already handed out gets `-2`, `-3`, ... in the order of the calls, cut so that the
 * result still fits 63 characters. The same sequence of names always gives the same slugs,
 * which is how a re-run import finds the checks it created before.
 */
export class SlugAllocator {
  readonly #taken = new Set<string>();
  // For each base handed out, the suffix number to try next: every smaller one is taken.
  readonly #nextSuffix = new Map<string, number>();

  /** The slug for `name` (or for `preferred`, when it is already a valid slug). */
  allocate(name: string, preferred?: string): string {
    const base = preferred !== undefined && SLUG_PATTERN.test(preferred) ? preferred : slugify(name);
    let slug = base;
    let n = this.#nextSuffix.get(base) ?? 2;
    while (this.#taken.has(slug)) {
      const suffix = `-${n++}`;
      slug = base.slice(0, MAX_SLUG_LENGTH - suffix.length).replace(/-+$/, '') + suffix;
    }
    this.#taken.add(slug);
    this.#nextSuffix.set(base, n);
    return slug;
  }

  /** Whether `slug` was handed out already. */
  has(slug: string): boolean {
    return this.#taken.has(slug);
  }
}
