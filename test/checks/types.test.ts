import { describe, expect, test } from 'vitest';
import {
  checkTypeNames,
  checkTypes,
  configJsonSchema,
  getCheckType,
  listCheckTypes,
  sampleCheck,
  validateCheck,
  type CheckTypeName,
} from '../../checks/index.js';
import { WHOLE_REFERENCE } from '../../checks/secret-references.js';
import { schemaErrors } from './json-schema-subset.js';

// One wrong config per type, laid over the type's sample config, and the one path it must be
// reported at. An `undefined` value removes that field from the sample.
const invalidConfigs: Record<CheckTypeName, { change: Record<string, unknown>; path: string }> = {
  http: { change: { expectedStatusCodes: [200, '299-200'] }, path: 'config.expectedStatusCodes.1' },
  tcp: { change: { keyword: { value: '' } }, path: 'config.keyword.value' },
  udp: { change: { send: 42 }, path: 'config.send' },
  icmp: { change: { count: 0 }, path: 'config.count' },
  dns: { change: { recordType: 'AXFR' }, path: 'config.recordType' },
  tls: { change: { expiryThresholdDays: 0 }, path: 'config.expiryThresholdDays' },
  domain: { change: { expiryThresholdDays: 400 }, path: 'config.expiryThresholdDays' },
  websocket: { change: { headers: { Authorization: 'Bearer abc' } }, path: 'config.headers.Authorization' },
  grpc: { change: { metadata: { 'X-Upper': 'a' } }, path: 'config.metadata.X-Upper' },
  ssh: { change: { expectedExitCode: 256 }, path: 'config.expectedExitCode' },
  smtp: { change: { security: 'ssl' }, path: 'config.security' },
  pop3: { change: { security: 'STARTTLS' }, path: 'config.security' },
  imap: { change: { password: 'secret' }, path: 'config.password' },
  heartbeat: { change: { periodSeconds: undefined }, path: 'config.periodSeconds' },
  postgres: { change: { password: 'hunter2' }, path: 'config.password' },
  mysql: { change: { query: '' }, path: 'config.query' },
  mssql: { change: { database: 'x'.repeat(129) }, path: 'config.database' },
  oracle: { change: { useTls: 'yes' }, path: 'config.useTls' },
  mongodb: { change: { command: 'ping' }, path: 'config.command' },
  redis: { change: { database: -1 }, path: 'config.database' },
  mqtt: { change: { topic: undefined }, path: 'config.topic' },
  kafka: { change: { additionalBrokers: ['kafka-2.example.com'] }, path: 'config.additionalBrokers.0' },
  rabbitmq: { change: { additionalNodes: ['amqp://rabbit-2.example.com'] }, path: 'config.additionalNodes.0' },
  docker: { change: { dockerHost: 'unix://relative.sock' }, path: 'config.dockerHost' },
  snmp: { change: { version: '2c', v3Username: 'ops' }, path: 'config.v3Username' },
  ntp: { change: { maxStratum: 16 }, path: 'config.maxStratum' },
  browser: { change: { waitUntil: 'idle' }, path: 'config.waitUntil' },
};

function sampleInput(type: CheckTypeName): Record<string, unknown> {
  const declaration = getCheckType(type);
  if (!declaration) throw new Error(type);
  return structuredClone({ type, ...declaration.sample }) as Record<string, unknown>;
}

function withoutUndefined(object: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined));
}

describe('the catalog', () => {
  test('declares every type the importers need', () => {
    expect([...checkTypeNames].sort()).toEqual(
      [
        'http',
        'tcp',
        'udp',
        'icmp',
        'dns',
        'tls',
        'domain',
        'websocket',
        'grpc',
        'ssh',
        'smtp',
        'pop3',
        'imap',
        'heartbeat',
        'postgres',
        'mysql',
        'mssql',
        'oracle',
        'mongodb',
        'redis',
        'mqtt',
        'kafka',
        'rabbitmq',
        'docker',
        'snmp',
        'ntp',
        'browser',
      ].sort(),
    );
    expect(new Set(checkTypeNames).size).toBe(checkTypes.length);
  });

  test('lists every type with its title, description, target meaning and config schema', () => {
    const listed = listCheckTypes();
    expect(listed.map((entry) => entry.type)).toEqual(checkTypeNames);
    for (const entry of listed) {
      expect(entry.title).not.toBe('');
      expect(entry.description).not.toBe('');
      expect(entry.target.description).not.toBe('');
      expect(entry.schema).toMatchObject({ type: 'object', additionalProperties: false });
      expect(JSON.parse(JSON.stringify(entry))).toEqual(entry);
    }
  });

  test('hands out copies, so a caller cannot change the catalog', () => {
    const first = listCheckTypes()[0];
    (first.schema as { properties: Record<string, unknown> }).properties.injected = {};
    expect(listCheckTypes()[0].schema).not.toHaveProperty('properties.injected');
  });

  test('knows nothing of unknown types', () => {
    expect(getCheckType('gopher')).toBeUndefined();
    expect(sampleCheck('gopher')).toBeUndefined();
    expect(configJsonSchema('gopher')).toBeUndefined();
  });

  test('has one invalid-config case per type', () => {
    expect(Object.keys(invalidConfigs).sort()).toEqual([...checkTypeNames].sort());
  });
});

describe.each(checkTypeNames.map((type) => [type]))('check type %s', (type) => {
  const declaration = getCheckType(type)!;

  test('its sample is a complete, valid check', () => {
    const sample = sampleCheck(type)!;
    expect(sample.type).toBe(type);
    expect(validateCheck(sample)).toEqual({ ok: true, check: sample });
    for (const key of ['slug', 'name', 'enabled', 'intervalSeconds', 'target', 'config', 'thresholds', 'labels']) {
      expect(sample).toHaveProperty(key);
    }
  });

  test('rejects an invalid config at the right path', () => {
    const input = sampleInput(type);
    const { change, path } = invalidConfigs[type];
    input.config = withoutUndefined({ ...(input.config as Record<string, unknown>), ...change });
    const result = validateCheck(input);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map((issue) => issue.path)).toEqual([path]);
    expect(result.issues[0].message).not.toBe('');
  });

  test('rejects a config that is not an object', () => {
    const result = validateCheck({ ...sampleInput(type), config: ['nope'] });
    expect(result).toEqual({ ok: false, issues: [{ path: 'config', message: 'expected an object, got a list' }] });
  });

  test('rejects a target of the wrong shape', () => {
    const result = validateCheck({ ...sampleInput(type), target: 'ftp://example.com/file' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues.map((issue) => issue.path)).toEqual(['target']);
  });

  test(declaration.target.kind === 'none' ? 'needs no target' : 'requires a target', () => {
    const input = sampleInput(type);
    delete input.target;
    const result = validateCheck(input);
    if (declaration.target.kind === 'none') {
      expect(result.ok && result.check.target).toBe('');
    } else {
      expect(result).toEqual({
        ok: false,
        issues: [{ path: 'target', message: `required: ${declaration.target.description}` }],
      });
    }
  });

  test('its target example is valid', () => {
    expect(declaration.target.problem(declaration.target.example)).toBeUndefined();
  });

  test('exports its config as JSON Schema that agrees with validation', () => {
    const schema = configJsonSchema(type)!;
    expect(schema).toMatchObject({ type: 'object', additionalProperties: false });
    const properties = Object.keys(schema.properties as object);
    expect(properties).toEqual(Object.keys(declaration.config.shape));
    expect(properties).toContain('invert');
    expect(schemaErrors(schema, declaration.sample.config)).toEqual([]);
    expect(schemaErrors(schema, sampleCheck(type)!.config)).toEqual([]);
    expect(schemaErrors(schema, { ...declaration.sample.config, misspelt: true })).not.toEqual([]);
  });

  test('takes a secret only as a reference, never as a literal', () => {
    const secretFields: [string, { pattern?: string }][] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node !== null && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) {
          if (/password|secret|token|apiKey|privateKey/i.test(key) && key !== 'properties') secretFields.push([key, value as { pattern?: string }]);
          walk(value);
        }
      }
    };
    walk(configJsonSchema(type));
    for (const [key, schema] of secretFields) {
      expect(schema.pattern, key).toBe(WHOLE_REFERENCE.source);
      expect(new RegExp(schema.pattern!).test('{{secrets.DB_PASSWORD}}'), key).toBe(true);
      expect(new RegExp(schema.pattern!).test('hunter2'), key).toBe(false);
    }
  });
});
