import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import initSqlJs from 'sql.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ImportInputError } from '../../../importers/converter.js';
import { convertSelfhostedMonitorDb, inspectSelfhostedMonitorDb, isSqliteFile, prepareSelfhostedMonitorDb } from '../../../importers/uptime-kuma/index.js';
import { FIXTURE_DIR, buildDatabase, buildFixtureDatabase, schemaSql } from '../../fixtures/import/uptime-kuma/build-database.js';
import { buildLargeDatabase } from '../../fixtures/import/uptime-kuma/generate-large.js';

const MARIADB_HINT = /MariaDB/;

function inputError(input: Uint8Array | string): ImportInputError {
  try {
    convertSelfhostedMonitorDb(input);
  } catch (error) {
    expect(error).toBeInstanceOf(ImportInputError);
    return error as ImportInputError;
  }
  throw new Error('expected an ImportInputError');
}

async function sqliteFile(sql: string): Promise<Uint8Array> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  db.exec(sql);
  const bytes = db.export();
  db.close();
  return bytes;
}

let tmp: string;
let fixture20: Uint8Array;

beforeAll(async () => {
  await prepareSelfhostedMonitorDb();
  tmp = mkdtempSync(join(tmpdir(), 'svc-selfhosted-'));
  fixture20 = await buildFixtureDatabase('2.0', 'kuma-2.0.sql');
});

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('the two schemas', () => {
  test.each([
    ['2.0', 95],
    ['2.5', 114],
  ] as const)('the %s DDL has a monitor table of %i columns, and an empty database converts to nothing', async (version, columns) => {
    const SQL = await initSqlJs();
    const db = new SQL.Database();
    db.exec(schemaSql(version));
    expect(db.exec('PRAGMA table_info(monitor)')[0]!.values).toHaveLength(columns);
    db.close();
    expect(convertSelfhostedMonitorDb(await buildDatabase(version, ''))).toEqual({ checks: [], warnings: [], skipped: [] });
  });

  test('columns are read by name: a monitor table with only a few columns converts', async () => {
    const bytes = await sqliteFile(`
      CREATE TABLE monitor (type TEXT, url TEXT, name TEXT, id INTEGER PRIMARY KEY);
      INSERT INTO monitor (id, name, type, url) VALUES (1, 'Only the basics', 'http', 'https://example.com/');`);
    const { checks, warnings } = convertSelfhostedMonitorDb(bytes);
    expect(warnings).toEqual([]);
    expect(checks).toMatchObject([{ slug: 'only-the-basics', type: 'http', enabled: true, target: 'https://example.com/', intervalSeconds: 60 }]);
  });

  test('a database file kept in write-ahead-log mode is read', () => {
    const path = join(tmp, 'wal.db');
    const db = new Database(path);
    db.pragma('journal_mode = WAL');
    db.exec(schemaSql('2.5'));
    db.exec("INSERT INTO monitor (id, name, type, url, user_id) VALUES (1, 'Through the WAL', 'http', 'https://wal.example.com/', NULL)");
    db.close();
    const bytes = new Uint8Array(readFileSync(path));
    expect(bytes[18]).toBe(2);
    expect(convertSelfhostedMonitorDb(bytes).checks.map((check) => check.slug)).toEqual(['through-the-wal']);
    expect(bytes[18]).toBe(2);
  });

  test('the status history is not part of the result', async () => {
    const bytes = await buildDatabase(
      '2.5',
      `CREATE TABLE heartbeat (id INTEGER PRIMARY KEY, monitor_id INTEGER, status INTEGER, msg TEXT, time DATETIME);
       INSERT INTO monitor (id, name, type, hostname) VALUES (1, 'Router', 'ping', '192.0.2.1');
       INSERT INTO heartbeat (monitor_id, status, msg, time) VALUES (1, 0, 'no reply from 192.0.2.1 (history)', '2026-01-01 00:00:00');`,
    );
    const text = JSON.stringify(convertSelfhostedMonitorDb(bytes));
    expect(text).toContain('router');
    expect(text).not.toContain('history');
  });

  test('the same bytes are recognised by their header', () => {
    expect(isSqliteFile(fixture20)).toBe(true);
    expect(isSqliteFile(new TextEncoder().encode('{"monitorList": []}'))).toBe(false);
  });

  test('inspecting reads without converting, and refuses what the converter refuses', async () => {
    expect(inspectSelfhostedMonitorDb(fixture20)).toEqual({ kind: '2.x database', monitors: 32 });
    const backup = readFileSync(new URL('backup-1.6.json', FIXTURE_DIR), 'utf8');
    expect(inspectSelfhostedMonitorDb(backup)).toEqual({ kind: '1.x backup', monitors: 6 });
    expect(() => inspectSelfhostedMonitorDb(fixture20.slice(0, 4096))).toThrow(ImportInputError);
  });

  test('progress is reported up to the number of monitors', () => {
    const calls: [number, number][] = [];
    convertSelfhostedMonitorDb(fixture20, { onProgress: (done, total) => calls.push([done, total]) });
    expect(calls.at(-1)).toEqual([32, 32]);
  });
});

describe('inputs that cannot be read', () => {
  test('a SQLite database of another program has no monitor table', async () => {
    const error = inputError(await sqliteFile('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)'));
    expect(error.message).toMatch(/SQLite database, but not one of the self-hosted monitor: it has no monitor table/);
    expect(error.message).toMatch(MARIADB_HINT);
  });

  test('a damaged database file is refused', () => {
    const damaged = new Uint8Array(fixture20);
    damaged.fill(0x5a, 100, 4096);
    const error = inputError(damaged);
    expect(error.message).toMatch(/cannot be read/);
    expect(error.message).toMatch(MARIADB_HINT);
  });

  test.each([16, 100, 1000, 4096, 20_000])('a database file cut after %i bytes is refused', (length) => {
    expect(inputError(fixture20.slice(0, length)).message).toMatch(/SQLite/);
  });

  test('a database file that arrived as text is refused with the reason', () => {
    const text = new TextDecoder('latin1').decode(fixture20);
    expect(inputError(text).message).toMatch(/arrived as text/);
  });

  test('an SQL dump (what a MariaDB install would give) is refused', () => {
    const error = inputError('-- MariaDB dump 10.19\nCREATE TABLE `monitor` (`id` int);');
    expect(error.message).toMatch(/SQL dump/);
    expect(error.message).toMatch(MARIADB_HINT);
  });

  test.each([
    ['empty input', ''],
    ['a JSON list', '[]'],
    ['JSON without a monitor list', '{"version": "1.23.16", "monitors": []}'],
    ['a JSON string', '"kuma"'],
    ['truncated JSON', readFileSync(new URL('backup-1.23.json', FIXTURE_DIR), 'utf8').slice(0, 500)],
    ['YAML', 'endpoints:\n  - name: x\n'],
  ])('%s is refused', (_, input) => {
    expect(inputError(input).message).toMatch(/backup/);
  });

  test('bytes that are not UTF-8 are refused', () => {
    expect(inputError(new Uint8Array([0xff, 0xfe, 0x00, 0x81, 0x7b])).message).toMatch(/UTF-8/);
  });
});

describe('scale', () => {
  // The benchmark builds 10,000 rows with the same generator; the test keeps to 2,000 (20 groups).
  test('a generated database of 2,000 rows converts every monitor', async () => {
    const result = convertSelfhostedMonitorDb(await buildLargeDatabase(2_000));
    expect(result.checks).toHaveLength(1_980);
    // Every group is named in the answer with what it became.
    expect(result.skipped).toHaveLength(20);
    expect(result.skipped.every((item) => item.reason === 'BECAME_LABEL')).toBe(true);
    expect(result.skipped[0]).toMatchObject({ item: 'Group 1', message: expect.stringMatching(/^became the label group=Group 1 on its \d+ monitors$/) });
    expect(new Set(result.checks.map((check) => check.slug)).size).toBe(1_980);
    expect(result.checks[0]).toMatchObject({ slug: 'monitor-2', labels: { group: 'Group 1', env: 'production' } });
  });
});

describe('free text the catalog bounds', () => {
  // The tool stores a monitor's name and description as it was typed, without a length
  // (db/knex_init_db.js: `description` is text): each is fitted to the catalog with a warning,
  // and the monitor is imported rather than skipped.
  test('a long description and a name with a line break are fitted, and the monitor is imported', async () => {
    const bytes = await sqliteFile(`
      CREATE TABLE monitor (id INTEGER PRIMARY KEY, name TEXT, type TEXT, url TEXT, description TEXT);
      INSERT INTO monitor VALUES (1, 'Shop' || char(10) || 'front', 'http', 'https://example.com/', 'Call ops' || char(7) || ' first. ' || replace(hex(zeroblob(2100)), '00', '📟'));`);
    const result = convertSelfhostedMonitorDb(bytes);
    expect(result.skipped).toEqual([]);
    expect(result.checks[0].name).toBe('Shop front');
    expect(result.checks[0].description).toBe(`Call ops  first. ${'📟'.repeat(1983)}`);
    expect(result.warnings.map((warning) => `${warning.field}: ${warning.message}`)).toEqual([
      'description: control characters in the description were written as spaces',
      'description: the description was cut to 2000 characters',
      'name: control characters in the name were written as spaces',
    ]);
  });
});

describe('MQTT over WebSocket', () => {
  // The tool puts a "/" before a WebSocket path written without one (server/monitor-types/mqtt.js,
  // mqttAsync), so such a monitor runs there; here the path gets its "/" and the monitor imports.
  test('a path without its leading "/" is read as the tool reads it', async () => {
    const bytes = await sqliteFile(`
      CREATE TABLE monitor (id INTEGER PRIMARY KEY, name TEXT, type TEXT, hostname TEXT, port INTEGER, mqtt_topic TEXT, mqtt_websocket_path TEXT, mqtt_success_message TEXT);
      INSERT INTO monitor VALUES (1, 'Broker', 'mqtt', 'wss://broker.example.com', 443, 'plant/status', 'mqtt', 'ok');
      INSERT INTO monitor VALUES (2, 'Broker 2', 'mqtt', 'wss://broker.example.com', 443, 'plant/status', '/ws', 'ok');`);
    const result = convertSelfhostedMonitorDb(bytes);
    expect(result.skipped).toEqual([]);
    expect(result.checks.map((check) => (check.config as { websocketPath?: string }).websocketPath)).toEqual(['/mqtt', '/ws']);
  });
});
