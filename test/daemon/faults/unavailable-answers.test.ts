import { request as httpRequest } from 'node:http';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';

/** fetch refuses TRACE: node:http sends any method. */
function rawRequest(url: string, method: string): Promise<{ status: number; allow?: string; body: any }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, allow: res.headers.allow, body: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe.each(DATABASE_KINDS)('OPTIONS, TRACE and a locked database under /api [%s]', (kind) => {
  let daemon: TestDaemon;
  let admin: string;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
    admin = await daemon.adminToken();
  });
  afterAll(() => daemon.stop());

  it('answers OPTIONS with 204 and Allow, TRACE and unknown methods with 405 JSON, unknown paths with 404 JSON', async () => {
    const options = await daemon.request('OPTIONS', '/orgs/default/checks');
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')?.split(', ').sort()).toEqual(['GET', 'HEAD', 'OPTIONS', 'POST']);
    const trace = await rawRequest(`${daemon.url}/api/v1/orgs/default/checks`, 'TRACE');
    expect(trace.status).toBe(405);
    expect(trace.body.error.code).toBe('METHOD_NOT_ALLOWED');
    expect(trace.allow).toContain('GET');
    const made = await rawRequest(`${daemon.url}/api/v1/health`, 'PROPFIND');
    expect(made.status).toBe(405);
    expect(made.body.error.code).toBe('METHOD_NOT_ALLOWED');
    const nowhere = await daemon.request('OPTIONS', '/no/such/route');
    expect(nowhere.status).toBe(404);
    expect(nowhere.body.error.code).toBe('NOT_FOUND');
    // The known-method refusal is unchanged.
    const put = await daemon.request('PUT', '/health');
    expect(put.status).toBe(405);
    expect(put.body.error.code).toBe('METHOD_NOT_ALLOWED');
  });

  it.runIf(kind === 'sqlite')('answers 503 with Retry-After, naming the cause, when another writer holds the file past the busy timeout', async () => {
    const other = new SQLite(daemon.database.url.slice('sqlite:'.length));
    other.prepare('begin immediate').run();
    try {
      const res = await daemon.request('PATCH', '/orgs/default', { token: admin, body: { name: 'Renamed' } });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(res.body.error).toMatchObject({ code: 'UNAVAILABLE', message: expect.stringContaining('locked by another writer') });
    } finally {
      other.prepare('rollback').run();
      other.close();
    }
    expect((await daemon.request('PATCH', '/orgs/default', { token: admin, body: { name: 'Renamed' } })).status).toBe(200);
    expect(daemon.logs.filter((line) => line.includes('unexpected error'))).toEqual([]);
    expect(daemon.logs.some((line) => line.includes('database unavailable: the database stayed locked'))).toBe(true);
  });
});
