import { describe, expect, test } from 'vitest';
import { convertUptimeApiMonitor } from '../../../importers/uptime-api-monitor/index.js';
import { expectWellFormed, loadFixtures } from '../shared/fixture-table.js';

const fixtures = loadFixtures('uptime-api-monitor', 'json');

describe('uptime-api-monitor fixtures', () => {
  test('there are fixtures', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(5);
  });

  test.each(fixtures.map((fixture) => [fixture.name, fixture] as const))('%s', (_name, fixture) => {
    const result = convertUptimeApiMonitor(fixture.input);
    expect(result.checks).toEqual(fixture.expected.checks);
    expect(result.warnings).toEqual(fixture.expected.warnings);
    expect(result.skipped).toEqual(fixture.expected.skipped);
    expectWellFormed(result, 'uptime-api-monitor');
  });
});
