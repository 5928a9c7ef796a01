import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { convertProbeExporterConfig } from '../../../importers/blackbox-exporter/index.js';
import { expectedAt, expectFixture, expectWellFormed } from '../shared/fixture-table.js';
import { BLACKBOX_FIXTURES, fixtureBundle } from './fixture-bundle.js';

const fixtures = readdirSync(BLACKBOX_FIXTURES)
  .filter((name) => statSync(join(BLACKBOX_FIXTURES, name)).isDirectory())
  .sort();

describe('probe-exporter-config fixtures', () => {
  test('there are fixtures', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(2);
  });

  test.each(fixtures)('%s', (name) => {
    const result = convertProbeExporterConfig(fixtureBundle(name));
    expectFixture(expectedAt(join(BLACKBOX_FIXTURES, `${name}.expected.json`)), result);
    expectWellFormed(result, 'probe-exporter-config');
  });
});
