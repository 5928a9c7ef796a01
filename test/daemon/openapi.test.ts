import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
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
    const importRoute = Object.values(document.paths)
      .flatMap((p: any) => Object.values(p))
      .find((o: any) => o.requestBody?.content['application/octet-stream']);
    expect(importRoute).toBeDefined();
  });

  it('describes every success body and every JSON request body with a schema', () => {
    const empty: string[] = [];
    for (const [path, item] of Object.entries<any>(document.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        for (const [status, response] of Object.entries<any>(operation.responses)) {
          for (const [type, media] of Object.entries<any>(response.content ?? {})) {
            if (Object.keys(media.schema ?? {}).length === 0) empty.push(`${method} ${path} ${status} ${type}`);
          }
        }
        for (const [type, media] of Object.entries<any>(operation.requestBody?.content ?? {})) {
          if (Object.keys(media.schema ?? {}).length === 0) empty.push(`${method} ${path} request ${type}`);
        }
      }
    }
    expect(empty).toEqual([]);
    // A route that answers no body says so; one that answers a body names its contract type.
    expect(Object.keys(document.paths['/orgs/{org}/checks/{slug}'].delete.responses)).toEqual(['204', 'default']);
    expect(document.paths['/orgs/{org}/checks/{slug}'].get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Check' });
    expect(document.components.schemas.CheckState.enum).toEqual(['pending', 'up', 'degraded', 'down', 'paused', 'maintenance']);
    expect(document.paths['/public/status/{org}/{page}'].get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/PublicStatus',
    });
  });

  it("generates a typed client with openapi-typescript: a check's state is its states, not unknown", async () => {
    const scratch = mkdtempSync(join(tmpdir(), 'svc-openapi-ts-'));
    try {
      writeFileSync(join(scratch, 'api.ts'), astToString(await openapiTS(document)));
      // What a client of openapi-fetch reads as `data` of GET /orgs/{org}/checks/{slug}.
      writeFileSync(
        join(scratch, 'use.ts'),
        [
          "import type { paths } from './api';",
          "type Data = paths['/orgs/{org}/checks/{slug}']['get']['responses']['200']['content']['application/json'];",
          "type ListData = paths['/orgs/{org}/checks']['get']['responses']['200']['content']['application/json'];",
          "export const state: NonNullable<Data['state']> = 'degraded';",
          "export const listed: ListData['items'][number]['state'] = 'paused';",
          '// @ts-expect-error not a state of a check',
          "export const wrong: NonNullable<Data['state']> = 'sideways';",
          '// @ts-expect-error a listed check always has its state',
          "export const missing: ListData['items'][number]['state'] = undefined;",
        ].join('\n'),
      );
      const program = ts.createProgram([join(scratch, 'use.ts')], {
        strict: true,
        noEmit: true,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        target: ts.ScriptTarget.ES2022,
        types: [],
      });
      const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' '));
      expect(problems).toEqual([]);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 60_000);
});
