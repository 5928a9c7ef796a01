import { describe, expect, test } from 'vitest';
import { convertConfigFile } from '../../../importers/gatus/index.js';
import { expectFixture, expectWellFormed, loadFixtures } from '../shared/fixture-table.js';

const fixtures = loadFixtures('configfile-monitor', 'yaml');

describe('configfile-monitor fixtures', () => {
  test('there are fixtures', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(5);
  });

  test.each(fixtures.map((fixture) => [fixture.name, fixture] as const))('%s', (_name, fixture) => {
    const result = convertConfigFile(fixture.input);
    expectFixture(fixture, result);
    expectWellFormed(result, 'configfile-monitor');
  });

  test.each(fixtures.map((fixture) => [fixture.name, fixture] as const))('%s converts the same from text and bytes', (_name, fixture) => {
    expect(convertConfigFile(fixture.input.toString('utf8'))).toEqual(convertConfigFile(fixture.input));
  });
});
