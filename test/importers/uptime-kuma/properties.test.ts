import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import initSqlJs from 'sql.js';
import { beforeAll, describe, expect, test } from 'vitest';
import { validateCheck } from '../../../checks/index.js';
import { ImportInputError, type ConversionResult } from '../../../importers/converter.js';
import { convertSelfhostedMonitorDb, prepareSelfhostedMonitorDb } from '../../../importers/uptime-kuma/index.js';
import { FIXTURE_DIR, buildFixtureDatabase, schemaSql } from '../../fixtures/import/uptime-kuma/build-database.js';

// Whatever arrives, the converter either refuses the input as a whole with an
// ImportInputError or returns checks that the catalog accepts as they are.

const SQLITE_MAGIC = new TextEncoder().encode('SQLite format 3\0');
const TYPES = [
  'http',
  'keyword',
  'json-query',
  'port',
  'ping',
  'dns',
  'docker',
  'push',
  'group',
  'real-browser',
  'grpc-keyword',
  'kafka-producer',
  'mqtt',
  'rabbitmq',
  'smtp',
  'snmp',
  'ntp',
  'websocket-upgrade',
  'sqlserver',
  'postgres',
  'mysql',
  'mongodb',
  'oracledb',
  'redis',
  'radius',
  'steam',
  'gamedig',
  'tailscale-ping',
  'system-service',
  'sip-options',
  'globalping',
  'manual',
  'unknown',
  '__proto__',
  'constructor',
  'toString',
];

function convertOrRefuse(input: Uint8Array | string): ConversionResult | 'refused' {
  try {
    return convertSelfhostedMonitorDb(input);
  } catch (error) {
    if (error instanceof ImportInputError) return 'refused';
    throw error;
  }
}

function assertSound(outcome: ConversionResult | 'refused'): void {
  if (outcome === 'refused') return;
  const slugs = new Set<string>();
  for (const check of outcome.checks) {
    const validation = validateCheck(check);
    if (!validation.ok) throw new Error(`the catalog rejects ${JSON.stringify(check)}: ${JSON.stringify(validation.issues)}`);
    expect(validation.check).toEqual(check);
    expect(slugs.has(check.slug)).toBe(false);
    slugs.add(check.slug);
  }
}

// Values as loose as a hand-edited backup or a damaged row can hold: JSON of any shape, JSON
// inside strings, numbers as text, and text that looks like the fields it replaces.
const looseValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.stringify(value)),
  fc.constantFrom(
    '',
    ' ',
    '0',
    '1',
    'true',
    '-5',
    '1e309',
    'https://',
    'https://example.com/x',
    'a b',
    '::1',
    '[::1]:53',
    '__proto__',
    'example.com',
    'postgres://u:p@h:1/d',
    'Server=h,1;Password=p',
    '{"Authorization": "x"}',
    '["200-299"]',
    '[{"type":"expression","variable":"record","operator":"contains","value":"x"}]',
    'mqtts://h',
    'wss://h/p',
  ),
  fc.string({ maxLength: 40 }),
  fc.integer({ min: -100_000, max: 10_000_000 }),
);

let sqlColumns: string[];
let fixtureDb: Uint8Array;
let backupText: string;
let backup: { monitorList: Record<string, unknown>[] };

beforeAll(async () => {
  await prepareSelfhostedMonitorDb();
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  db.exec(schemaSql('2.5'));
  sqlColumns = db.exec('PRAGMA table_info(monitor)')[0]!.values.map((row) => String(row[1]));
  db.close();
  fixtureDb = await buildFixtureDatabase('2.0', 'kuma-2.0.sql');
  backupText = readFileSync(new URL('backup-1.23.json', FIXTURE_DIR), 'utf8');
  backup = JSON.parse(backupText) as typeof backup;
});

describe('random and damaged bytes', () => {
  test('arbitrary bytes are refused or converted, never anything else', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4096 }), (bytes) => assertSound(convertOrRefuse(bytes))),
      { numRuns: 300 },
    );
  });

  test('bytes behind a SQLite header are refused or converted', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 8192 }), (tail) => {
        const bytes = new Uint8Array(SQLITE_MAGIC.length + tail.length);
        bytes.set(SQLITE_MAGIC);
        bytes.set(tail, SQLITE_MAGIC.length);
        assertSound(convertOrRefuse(bytes));
      }),
      { numRuns: 200 },
    );
  });

  test('a real database file with bytes changed or cut off is refused or converted', () => {
    const change = fc.record({ at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) });
    fc.assert(
      fc.property(fc.array(change, { minLength: 1, maxLength: 40 }), fc.option(fc.nat()), (changes, cut) => {
        const bytes = new Uint8Array(fixtureDb);
        for (const { at, value } of changes) bytes[at % bytes.length] = value;
        assertSound(convertOrRefuse(cut === null ? bytes : bytes.slice(0, cut % bytes.length)));
      }),
      { numRuns: 150 },
    );
  });
});

describe('random JSON', () => {
  test('any JSON value is refused or converted', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => assertSound(convertOrRefuse(JSON.stringify(value) ?? 'null'))),
      { numRuns: 300 },
    );
  });

  test('every cut of the backup short of its end is refused', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: backupText.trimEnd().length - 1 }), (length) => {
        expect(convertOrRefuse(backupText.slice(0, length))).toBe('refused');
      }),
      { numRuns: 200 },
    );
  });

  test('a backup with fields of any shape converts, item by item', () => {
    const keys = [
      ...sqlColumns,
      ...sqlColumns.map((c) => c.replace(/_([a-z])/g, (_, l: string) => l.toUpperCase())),
      'tags',
      'notificationIDList',
      'accepted_statuscodes',
    ];
    const entry = fc
      .record({ type: fc.constantFrom(...TYPES), name: fc.oneof(fc.string({ maxLength: 30 }), looseValue) }, { requiredKeys: [] })
      .chain((base) => fc.dictionary(fc.constantFrom(...keys), looseValue, { maxKeys: 25 }).map((extra) => ({ ...extra, ...base })));
    fc.assert(
      fc.property(fc.array(fc.oneof(entry, looseValue), { maxLength: 12 }), (monitorList) => {
        const outcome = convertOrRefuse(JSON.stringify({ version: '1.23.16', notificationList: [], monitorList }));
        expect(outcome).not.toBe('refused');
        assertSound(outcome);
      }),
      { numRuns: 300 },
    );
  });

  test('plausible monitors with random extra fields become checks the catalog accepts', () => {
    const keys = [...sqlColumns, ...sqlColumns.map((c) => c.replace(/_([a-z])/g, (_, l: string) => l.toUpperCase()))];
    const plausible = fc
      .record({
        name: fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ]{0,20}$/),
        type: fc.constantFrom(...TYPES),
        extra: fc.dictionary(fc.constantFrom(...keys.filter((k) => k !== 'type' && k !== 'name')), looseValue, { maxKeys: 6 }),
      })
      .map(({ name, type, extra }) => ({
        url: type === 'websocket-upgrade' ? 'wss://example.com/ws' : 'https://example.com/health',
        hostname: 'host.example.com',
        port: 443,
        docker_container: 'web',
        databaseConnectionString: 'postgres://monitor@db.example.com:5432/app',
        mqttTopic: 'a/b',
        kafkaProducerBrokers: ['kafka.example.com:9092'],
        kafkaProducerTopic: 'health',
        rabbitmqNodes: ['https://rabbit.example.com/'],
        grpcUrl: 'grpc.example.com:443',
        snmpOid: '1.3.6.1.2.1.1.3.0',
        ...extra,
        name,
        type,
      }));
    let produced = 0;
    fc.assert(
      fc.property(fc.array(plausible, { minLength: 1, maxLength: 10 }), (monitorList) => {
        const outcome = convertOrRefuse(JSON.stringify({ version: '1.23.16', notificationList: [], monitorList }));
        assertSound(outcome);
        if (outcome !== 'refused') produced += outcome.checks.length;
      }),
      { numRuns: 300 },
    );
    // Most of them do convert: the property is about real checks, not only about skips.
    expect(produced).toBeGreaterThan(500);
  });

  test('the fixture backup with one field of one monitor replaced converts', () => {
    fc.assert(
      fc.property(fc.nat(), fc.string({ maxLength: 20 }), looseValue, (index, key, value) => {
        const copy = structuredClone(backup);
        const monitor = copy.monitorList[index % copy.monitorList.length];
        const keys = typeof monitor === 'object' && monitor !== null ? Object.keys(monitor) : [];
        if (keys.length > 0) monitor![keys[index % keys.length]!] = value;
        else copy.monitorList[index % copy.monitorList.length] = { [key]: value };
        assertSound(convertOrRefuse(JSON.stringify(copy)));
      }),
      { numRuns: 300 },
    );
  });
});

describe('random rows in a real schema', () => {
  test('rows with random column values convert, item by item', async () => {
    const SQL = await initSqlJs();
    const columnValue = fc.oneof(
      looseValue.filter((v) => typeof v === 'string' || typeof v === 'number'),
      fc.constant(null),
    );
    const row = fc.record({
      type: fc.constantFrom(...TYPES),
      values: fc.dictionary(fc.constantFrom(...sqlColumns.filter((c) => c !== 'id' && c !== 'type')), columnValue, { maxKeys: 20 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(row, { minLength: 1, maxLength: 8 }), async (rows) => {
        const db = new SQL.Database();
        db.exec(schemaSql('2.5'));
        db.exec("PRAGMA ignore_check_constraints = ON; INSERT INTO user (id, username) VALUES (1, 'admin')");
        rows.forEach(({ type, values }, i) => {
          const columns = ['id', 'type', ...Object.keys(values)];
          const params = [i + 1, type, ...Object.values(values)] as (string | number | null)[];
          try {
            db.run(`INSERT INTO monitor (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`, params);
          } catch {
            // NOT NULL columns refuse null; such a row cannot exist in a real file either.
          }
        });
        const bytes = db.export();
        db.close();
        const outcome = convertOrRefuse(bytes);
        expect(outcome).not.toBe('refused');
        assertSound(outcome);
      }),
      { numRuns: 120 },
    );
  });
});
