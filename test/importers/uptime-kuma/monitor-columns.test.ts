import { readdirSync, readFileSync } from 'node:fs';
import initSqlJs from 'sql.js';
import { expect, test } from 'vitest';
import { MONITOR_COLUMNS } from '../../../importers/uptime-kuma/monitor-columns.js';
import { schemaSql } from '../../fixtures/import/uptime-kuma/build-database.js';

// The reader selects only MONITOR_COLUMNS. A mapping that starts reading another column of the
// monitor table must add it there, or it would silently read nothing: this test names it.
test('every monitor column a mapping names is one the reader selects', async () => {
  const SQL = await initSqlJs();
  const columns = new Set<string>();
  for (const version of ['2.0', '2.5'] as const) {
    const db = new SQL.Database();
    db.exec(schemaSql(version));
    for (const row of db.exec('PRAGMA table_info(monitor)')[0].values) columns.add(String(row[1]));
    db.close();
  }
  const dir = new URL('../../../importers/uptime-kuma/', import.meta.url);
  const source = readdirSync(dir)
    .filter((file) => file.endsWith('.ts') && file !== 'monitor-columns.ts')
    .map((file) => readFileSync(new URL(file, dir), 'utf8'))
    .join('\n');
  const named = [...columns].filter((column) => source.includes(`'${column}'`)).sort();
  expect(named.filter((column) => !MONITOR_COLUMNS.includes(column))).toEqual([]);
  expect([...MONITOR_COLUMNS].sort()).toEqual(named);
});
