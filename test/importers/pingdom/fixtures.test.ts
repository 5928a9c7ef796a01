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
