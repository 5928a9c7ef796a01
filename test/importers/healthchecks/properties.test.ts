import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { validateCheck } from '../../../checks/index.js';
import { ImportInputError, type ConversionResult } from '../../../importers/converter.js';
import { convertCronMonitorApi } from '../../../importers/healthchecks/index.js';

// Whatever a checks listing holds, the converter either refuses it as a whole with an
// ImportInputError or returns checks the catalog accepts as they are, with one warning or
// skip per thing that did not carry over, and ping tokens only for checks it emitted.

const KEYS = [
  'name',
  'slug',
  'tags',
  'desc',
  'grace',
  'status',
  'manual_resume',
  'methods',
  'start_kw',
  'success_kw',
  'failure_kw',
  'filter_subject',
  'filter_body',
  'ping_url',
  'unique_key',
  'channels',
  'timeout',
  'schedule',
  'tz',
];

const loose: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(
    '',
    'paused',
    'POST',
    '0 2 * * *',
    '*/5 * * * *',
    '61 * * * *',
    '* * *',
    '*-*~1 12:00',
    'Mon *-*-* 09:00',
    'Europe/Berlin',
    'Europe/Kiev',
    'Not/AZone',
    'https://hc-ping.com/5bf66975-d4c7-4bf5-bcc8-b8d8a82ea278',
    'https://hc-ping.com/not-a-uuid',
    'a b  c',
    '__proto__',
    null,
    true,
    false,
    -1,
    0,
    59,
    60,
    31_536_000,
    1e12,
  ),
  fc.string({ maxLength: 30 }),
  fc.integer({ min: -10, max: 100_000_000 }),
);

const check = fc.dictionary(fc.constantFrom(...KEYS), loose, { maxKeys: 14 });
const listing = fc.oneof(fc.record({ checks: fc.array(fc.oneof(check, loose), { maxLength: 8 }) }), fc.array(check, { maxLength: 8 }), loose);

function convertOrRefuse(input: string): ConversionResult | 'refused' {
  try {
    return convertCronMonitorApi(input);
  } catch (error) {
    if (error instanceof ImportInputError) return 'refused';
    throw error;
  }
}

describe('random listings', () => {
  test('are refused as a whole or converted into checks the catalog accepts', () => {
    fc.assert(
      fc.property(listing, (value) => {
        const outcome = convertOrRefuse(JSON.stringify(value) ?? '');
        if (outcome === 'refused') return;
        const slugs = new Set(outcome.checks.map((item) => item.slug));
        for (const item of outcome.checks) {
          expect(validateCheck(item)).toEqual({ ok: true, check: item });
          expect(item.type).toBe('heartbeat');
        }
        for (const slug of Object.keys(outcome.pingTokens ?? {})) expect(slugs.has(slug)).toBe(true);
        for (const token of Object.values(outcome.pingTokens ?? {})) expect(token).toMatch(/^[0-9a-f-]{36}$/);
        const listed = Array.isArray(value) ? value : (value as { checks?: unknown[] } | null)?.checks;
        if (Array.isArray(listed)) expect(outcome.checks.length + outcome.skipped.length).toBe(listed.length);
      }),
      { numRuns: 400 },
    );
  });

  test('converting again gives the same result', () => {
    fc.assert(
      fc.property(listing, (value) => {
        const text = JSON.stringify(value) ?? '';
        expect(convertOrRefuse(text)).toEqual(convertOrRefuse(text));
      }),
      { numRuns: 100 },
    );
  });
});
