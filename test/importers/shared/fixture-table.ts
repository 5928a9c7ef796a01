import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { validateCheck } from '../../../checks/index.js';
import { ImportInputError, MANAGED_LABEL_KEY, type ConversionResult, type Converter, type ImportSource } from '../../../importers/converter.js';
import { IMPORT_SOURCE_DESCRIPTIONS } from '../../../contract/import-sources.js';
import { updateSwitch } from '../../support/required-tool.js';

/** One fixture: an input file and the result expected from converting it. */
export interface Fixture {
  name: string;
  input: Buffer;
  expected: ConversionResult;
  expectedPath: string;
}

/**
 * The fixtures of a source: every `<name>.<ext>` in `test/fixtures/import/<tool>/` that has
 * a `<name>.expected.json` beside it.
 */
export function loadFixtures(source: ImportSource, extension: string): Fixture[] {
  const dir = join('test/fixtures/import', IMPORT_SOURCE_DESCRIPTIONS[source].tool);
  return readdirSync(dir)
    .filter((file) => file.endsWith(`.${extension}`) && !file.endsWith('.expected.json'))
    .sort()
    .map((file) => {
      const name = file.slice(0, -(extension.length + 1));
      const expectedPath = join(dir, `${name}.expected.json`);
      return {
        name,
        input: readFileSync(join(dir, file)),
        expected: JSON.parse(readFileSync(expectedPath, 'utf8')) as ConversionResult,
        expectedPath,
      };
    });
}

/**
 * Compares a fixture's conversion with its expected result: checks, every warning, skipped
 * items, maintenance windows. With UPDATE_IMPORT_FIXTURES=1 the expected file is rewritten instead; review the diff.
 */
export function expectFixture(fixture: Pick<Fixture, 'expected' | 'expectedPath'>, result: ConversionResult): void {
  if (updateSwitch('UPDATE_IMPORT_FIXTURES')) {
    writeFileSync(fixture.expectedPath, `${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  expect(result.checks).toEqual(fixture.expected.checks);
  expect(result.warnings).toEqual(fixture.expected.warnings);
  expect(result.skipped).toEqual(fixture.expected.skipped);
  expect(result.pingTokens).toEqual(fixture.expected.pingTokens);
  expect(result.maintenance).toEqual(fixture.expected.maintenance);
}

/** The rules every conversion result obeys, whatever the input. */
export function expectWellFormed(result: ConversionResult, source: ImportSource): void {
  const slugs = new Set<string>();
  for (const check of result.checks) {
    const validation = validateCheck(check);
    expect(validation.ok, JSON.stringify(validation)).toBe(true);
    if (validation.ok) expect(validation.check).toEqual(check);
    expect(check.labels[MANAGED_LABEL_KEY]).toBe(source);
    expect(slugs.has(check.slug), `duplicate slug ${check.slug}`).toBe(false);
    slugs.add(check.slug);
  }
  for (const warning of result.warnings) {
    expect(typeof warning.item).toBe('string');
    expect(warning.message.length).toBeGreaterThan(0);
    if (warning.slug !== undefined) expect(slugs.has(warning.slug)).toBe(true);
  }
  for (const skipped of result.skipped) {
    expect(['UNSUPPORTED_TYPE', 'INVALID_ITEM']).toContain(skipped.reason);
    expect(result.warnings.some((w) => w.item === skipped.item && w.code === skipped.reason && w.slug === undefined)).toBe(true);
  }
}

/**
 * Converts `input`; returns the result, or undefined when the converter refused it with an
 * ImportInputError. Any other exception fails the test.
 */
export function convertOrRefuse(convert: Converter, input: Uint8Array | string): ConversionResult | undefined {
  try {
    return convert(input);
  } catch (error) {
    if (error instanceof ImportInputError) {
      expect(error.message).toMatch(/^expected /);
      return undefined;
    }
    throw error;
  }
}

/** The expected result of a fixture kept at `path`, for `expectFixture`. */
export function expectedAt(path: string): Pick<Fixture, 'expected' | 'expectedPath'> {
  return { expected: JSON.parse(readFileSync(path, 'utf8')) as ConversionResult, expectedPath: path };
}
