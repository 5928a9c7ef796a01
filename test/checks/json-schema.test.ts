import { describe, expect, test } from 'vitest';
import { checkDefinitionJsonSchema, checkTypeNames, sampleCheck, validateCheck } from '../../checks/index.js';
import { schemaErrors } from './json-schema-subset.js';

describe('checkDefinitionJsonSchema', () => {
  const schema = checkDefinitionJsonSchema();

  test('has one alternative per type, told apart by type', () => {
    expect(schema.title).toBe('Check definition');
    const alternatives = schema.oneOf as Array<{ properties: { type: { const: string } } }>;
    expect(alternatives.map((alternative) => alternative.properties.type.const)).toEqual(checkTypeNames);
  });

  test('publishes the common rules: slug pattern, interval bounds, required fields', () => {
    const http = (schema.oneOf as Array<Record<string, any>>)[0];
    expect(http.properties.slug.pattern).toBe('^[a-z0-9][a-z0-9-]{0,62}$');
    expect(http.properties.intervalSeconds).toMatchObject({ minimum: 10, maximum: 86_400, default: 60 });
    expect(http.properties.thresholds.additionalProperties).toBe(false);
    expect(http.required).toEqual(['name', 'type', 'target']);
    expect(http.additionalProperties).toBe(false);
  });

  test('makes the target optional for heartbeat checks', () => {
    const heartbeat = (schema.oneOf as Array<Record<string, any>>).find((a) => a.properties.type.const === 'heartbeat')!;
    expect(heartbeat.required).toEqual(['name', 'type']);
  });

  test.each(checkTypeNames.map((type) => [type]))('accepts the %s sample and refuses it broken', (type) => {
    const sample = sampleCheck(type)!;
    expect(schemaErrors(schema, sample)).toEqual([]);
    expect(schemaErrors(schema, { ...sample, intervalSeconds: 5 })).not.toEqual([]);
    expect(schemaErrors(schema, { ...sample, config: { ...sample.config, unknownField: 1 } })).not.toEqual([]);
  });

  test('agrees with validateCheck on a minimal definition', () => {
    const minimal = { name: 'Homepage', type: 'http', target: 'https://example.com/' };
    expect(schemaErrors(schema, minimal)).toEqual([]);
    expect(validateCheck(minimal).ok).toBe(true);
    expect(schemaErrors(schema, { ...minimal, type: 'gopher' })).not.toEqual([]);
  });

  test('is plain JSON and a fresh copy each time', () => {
    expect(JSON.parse(JSON.stringify(schema))).toEqual(schema);
    schema.title = 'changed';
    expect(checkDefinitionJsonSchema().title).toBe('Check definition');
  });
});
