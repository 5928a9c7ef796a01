import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../daemon/routes/index.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';

describe.each(DATABASE_KINDS)('the OpenAPI document (%s)', (kind) => {
  let daemon: TestDaemon;
  let document: any;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
    const res = await daemon.request('GET', '/openapi.json');
    expect(res.status).toBe(200);
    document = res.body;
  });
  afterAll(() => daemon?.stop());

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe('3.1.0');
  });

  it('lists every mounted route with who may call it', () => {
    for (const route of ROUTES) {
      const path = route.path.replace(/:([A-Za-z]+)/g, '{$1}');
      const operation = document.paths[path]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${route.path}`).toBeDefined();
      expect(operation['x-svc-permission']).toBe(route.permission);
      expect(operation.security).toEqual(route.permission === 'public' ? [] : [{ bearer: [] }]);
      expect(operation.summary).toBe(route.summary);
    }
    expect(document.paths['/mcp'].post).toBeDefined();
  });

  it('describes request bodies from their schemas, path parameters and the error shape', () => {
    const login = document.paths['/auth/login'].post;
    expect(login.requestBody.content['application/json'].schema.properties).toHaveProperty('email');
    const check = document.paths['/orgs/{org}/checks/{slug}'].patch;
    expect(check.parameters.map((p: { name: string }) => p.name)).toEqual(['org', 'slug']);
    expect(check.description).toContain('`checks:write` (user and above)');
    expect(check.responses.default.description).toContain('403 FORBIDDEN');
    expect(document.components.schemas.Error.properties.error.properties.code.enum).toContain('RATE_LIMITED');
    const importRoute = Object.values(document.paths).flatMap((p: any) => Object.values(p)).find((o: any) => o.requestBody?.content['application/octet-stream']);
    expect(importRoute).toBeDefined();
  });
});
