import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { SLUG_PATTERN, slugify } from '../../checks/index.js';

describe('slugify', () => {
  test.each([
    ['API health', 'api-health'],
    ['  Leading and trailing  ', 'leading-and-trailing'],
    ['Café Straße — Zürich', 'cafe-strasse-zurich'],
    ['Ørsted / Łódź', 'orsted-lodz'],
    ['db::primary__replica', 'db-primary-replica'],
    ['v2.0 (beta)', 'v2-0-beta'],
    ['UPPER lower 123', 'upper-lower-123'],
    ['---', 'check'],
    ['', 'check'],
    ['日本語', 'check'],
    ['ｆｕｌｌｗｉｄｔｈ', 'fullwidth'],
  ])('%j becomes %j', (name, slug) => {
    expect(slugify(name)).toBe(slug);
  });

  test('cuts long names to 63 characters without a trailing dash', () => {
    const slug = slugify(`${'a'.repeat(62)} b`);
    expect(slug).toBe('a'.repeat(62));
    expect(slugify('x'.repeat(100))).toHaveLength(63);
  });

  test('always yields a slug that matches the pattern', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (name) => {
        const slug = slugify(name);
        expect(slug).toMatch(SLUG_PATTERN);
        expect(slug).not.toMatch(/--|-$/);
      }),
      { numRuns: 2000 },
    );
  });

  test('is deterministic and idempotent', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 100 }), (name) => {
        expect(slugify(name)).toBe(slugify(name));
        expect(slugify(slugify(name))).toBe(slugify(name));
      }),
    );
  });

  test('leaves a valid slug without double dashes unchanged', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9]{1,8}(?:-[a-z0-9]{1,8}){0,6}$/), (slug) => {
        expect(slugify(slug)).toBe(slug);
      }),
    );
  });
});
