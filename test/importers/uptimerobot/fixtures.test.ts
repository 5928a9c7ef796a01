import { describe, expect, test } from 'vitest';
import { convertUptimeApiMonitor } from '../../../importers/uptimerobot/index.js';
import { expectFixture, expectWellFormed, loadFixtures } from '../shared/fixture-table.js';

const fixtures = loadFixtures('uptime-api-monitor', 'json');

describe('uptime-api-monitor fixtures', () => {
  test('there are fixtures', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(5);
  });

  test.each(fixtures.map((fixture) => [fixture.name, fixture] as const))('%s', (_name, fixture) => {
    const result = convertUptimeApiMonitor(fixture.input);
    expectFixture(fixture, result);
    expectWellFormed(result, 'uptime-api-monitor');
  });
});
