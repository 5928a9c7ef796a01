import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, test, vi } from 'vitest';
import { FIXTURE_DIR, buildFixtureDatabase } from '../../fixtures/import/uptime-kuma/build-database.js';

// Each test imports the importer afresh, so that sql.js starts out not loaded.
async function freshImporter() {
  const [importer, contract] = await Promise.all([import('../../../importers/uptime-kuma/index.js'), import('../../../importers/converter.js')]);
  return { ...importer, ImportInputError: contract.ImportInputError };
}

beforeEach(() => {
  vi.resetModules();
});

describe('loading sql.js', () => {
  test('a backup converts with the synchronous converter without sql.js', async () => {
    const { convertSelfhostedMonitorDb } = await freshImporter();
    const backup = readFileSync(new URL('backup-1.6.json', FIXTURE_DIR), 'utf8');
    expect(convertSelfhostedMonitorDb(backup).checks).toHaveLength(6);
  });

  test('a database file before prepare() is a programming error, not an input error; after it, it converts', async () => {
    const { convertSelfhostedMonitorDb, prepareSelfhostedMonitorDb, ImportInputError } = await freshImporter();
    const bytes = await buildFixtureDatabase('2.5', 'kuma-2.5.sql');
    let thrown: unknown;
    try {
      convertSelfhostedMonitorDb(bytes);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect(thrown).not.toBeInstanceOf(ImportInputError);
    expect((thrown as Error).message).toMatch(/prepareSelfhostedMonitorDb/);

    await Promise.all([prepareSelfhostedMonitorDb(), prepareSelfhostedMonitorDb()]);
    expect(convertSelfhostedMonitorDb(bytes).checks).toHaveLength(13);
  });

  test('the async converter loads sql.js by itself', async () => {
    const { convertSelfhostedMonitorDbAsync } = await freshImporter();
    const bytes = await buildFixtureDatabase('2.0', 'kuma-2.0.sql');
    expect((await convertSelfhostedMonitorDbAsync(bytes)).checks).toHaveLength(25);
  });
});
