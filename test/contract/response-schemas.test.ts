import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error the generator is a plain script
import { OUTPUT, generateResponseSchemas, responseSchemasSource } from '../../scripts/generate-response-schemas.mjs';

describe('the JSON Schemas of the API answers', () => {
  it('are generated from the contract as it is now (else run node scripts/generate-response-schemas.mjs)', () => {
    expect(readFileSync(OUTPUT, 'utf8') === responseSchemasSource()).toBe(true);
  }, 60_000);

  it('follow the contract types: required and optional fields, literal unions, nullable fields, nested named types', () => {
    const { responses, components } = generateResponseSchemas();
    expect(responses.Check).toEqual({ $ref: '#/components/schemas/Check' });
    const check = components.Check;
    expect(check.required).toEqual(expect.arrayContaining(['slug', 'name', 'type', 'thresholds']));
    expect(check.required).not.toContain('state');
    expect(check.properties.state).toEqual({ $ref: '#/components/schemas/CheckState' });
    expect(components.CheckState).toMatchObject({ type: 'string', enum: ['pending', 'up', 'degraded', 'down', 'paused', 'maintenance'] });
    expect(check.properties.labels).toMatchObject({ type: 'object', additionalProperties: { type: 'string' } });
    expect(responses.CheckPage.properties.items).toEqual({ type: 'array', items: { $ref: '#/components/schemas/MonitoredCheck' } });
    expect(responses.CheckPage.properties.nextCursor).toEqual({ anyOf: [{ type: 'null' }, { type: 'string' }] });
    expect(components.CheckStateCounts.properties.counts.required).toEqual(['pending', 'up', 'degraded', 'down', 'paused', 'maintenance']);
    expect(components.WorkspaceLink.anyOf).toHaveLength(2);
    expect(components.NotificationChannel.properties.type).toEqual({ $ref: '#/components/schemas/ChannelType' });
  }, 60_000);
});
