import { describe, expect, test } from 'vitest';
import { convertHostedCheckApi } from '../../../importers/pingdom/index.js';
import { expectFixture, expectWellFormed, loadFixtures } from '../shared/fixture-table.js';

// The fixtures follow the API 3.1 reference (GET /checks with include_tags, GET /checks/{checkid}).
const fixtures = loadFixtures('hosted-check-api', 'json');

describe('hosted-check-api fixtures', () => {
  test('there are fixtures', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(3);
  });

  test.each(fixtures.map((fixture) => [fixture.name, fixture] as const))('%s', (_name, fixture) => {
    const result = convertHostedCheckApi(fixture.input);
    expectFixture(fixture, result);
    expectWellFormed(result, 'hosted-check-api');
  });
});

describe('the custom message', () => {
  // It becomes the check's description: cut to the catalog's 2,000 code points with a warning,
  // never in the middle of a character.
  test('a long one is cut between characters, with a warning', () => {
    const check = (id: number, message: string) => ({
      check: { id, name: `Check ${id}`, hostname: 'example.com', type: { http: {} }, custom_message: message },
    });
    const result = convertHostedCheckApi(JSON.stringify([check(1, '🚨'.repeat(2001)), check(2, ` Call the on-call phone first. `)]));
    expect(result.skipped).toEqual([]);
    expect(result.checks.map((c) => c.description)).toEqual(['🚨'.repeat(2000), 'Call the on-call phone first.']);
    expect(result.warnings.filter((w) => w.field === 'custom_message').map((w) => [w.item, w.message])).toEqual([
      ['Check 1', 'the description was cut to 2000 characters'],
    ]);
  });
});
