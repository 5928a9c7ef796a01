import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileBundleText } from '../../../importers/shared/file-bundle.js';

/** Where the fixtures are: each a folder of the files one import gives, with `<folder>.expected.json` beside it. */
export const BLACKBOX_FIXTURES = 'test/fixtures/import/blackbox-exporter';

/** The files of a fixture folder, by name. */
export function fixtureFiles(name: string): [string, string][] {
  const folder = join(BLACKBOX_FIXTURES, name);
  return readdirSync(folder)
    .sort()
    .map((file) => [file, readFileSync(join(folder, file), 'utf8')]);
}

/** The bundle the CLI sends for the files of a fixture folder. */
export const fixtureBundle = (name: string): string => fileBundleText(fixtureFiles(name));
