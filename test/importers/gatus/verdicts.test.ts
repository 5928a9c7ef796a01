import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { convertImport } from '../../../importers/index.js';
import { probe } from '../../probes/support/probe-run.js';

// Each row: a Gatus condition, what the local server answers, and the verdict Gatus reaches.
// The verdicts follow Gatus's own code (github.com/TwiN/gatus, config/endpoint/condition.go):
// `!=` is the negation of isEqual, which reads any(...) as "one of the listed values" and
// pat(...) as a glob; both sides that parse as whole numbers (strconv.ParseInt) compare as
// numbers, everything else as text, with JSON values written by Go's %v (2.10 reads "2.1").
// The imported check runs against the same answer and must reach the same verdict.

interface Row {
  condition: string;
  status: number;
  body: string;
  gatus: 'up' | 'down';
}

const ROWS: Row[] = [
  { condition: '[STATUS] != any(500, 503)', status: 200, body: '{}', gatus: 'up' },
  { condition: '[STATUS] != any(500, 503)', status: 503, body: '{}', gatus: 'down' },
  { condition: '[STATUS] == any(200, 429)', status: 429, body: '{}', gatus: 'up' },
  { condition: 'any(500, 503) != [STATUS]', status: 500, body: '{}', gatus: 'down' },
  { condition: '[STATUS] != pat(5*)', status: 502, body: '{}', gatus: 'down' },
  { condition: '[STATUS] != pat(5*)', status: 404, body: '{}', gatus: 'up' },
  { condition: '[BODY].status != any(down, failed)', status: 200, body: '{"status":"up"}', gatus: 'up' },
  { condition: '[BODY].status != any(down, failed)', status: 200, body: '{"status":"failed"}', gatus: 'down' },
  { condition: '[BODY].status == any(up, ok)', status: 200, body: '{"status":"ok"}', gatus: 'up' },
  { condition: '[BODY].status == any(up, ok)', status: 200, body: '{"status":"down"}', gatus: 'down' },
  { condition: '[BODY].code != any(1, 2)', status: 200, body: '{"code":2}', gatus: 'down' },
  { condition: '[BODY].code != any(1, 2)', status: 200, body: '{"code":3}', gatus: 'up' },
  { condition: '[BODY].version == 2.10', status: 200, body: '{"version":2.10}', gatus: 'down' },
  { condition: '[BODY].version == 2.1', status: 200, body: '{"version":2.10}', gatus: 'up' },
  { condition: '[BODY].version != 2.10', status: 200, body: '{"version":"2.1"}', gatus: 'up' },
  { condition: '[BODY].count == 3', status: 200, body: '{"count":3.0}', gatus: 'up' },
  { condition: '[BODY].name != pat(prod-*)', status: 200, body: '{"name":"prod-eu"}', gatus: 'down' },
];

describe('imported Gatus conditions reach the verdict Gatus reaches', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((request, response) => {
      const row = ROWS[Number(new URL(request.url ?? '/', 'http://x').searchParams.get('row'))]!;
      response.writeHead(row.status, { 'content-type': 'application/json' }).end(row.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test.each(ROWS.map((row, index) => ({ ...row, index })))('$condition on $status $body: $gatus', async ({ condition, index, gatus }) => {
    const config = `endpoints:\n  - name: row\n    url: ${base}/?row=${index}\n    conditions:\n      - ${JSON.stringify(condition)}\n`;
    const result = await convertImport('configfile-monitor', new TextEncoder().encode(config));
    expect(result.warnings).toEqual([]);
    expect(result.checks).toHaveLength(1);
    const verdict = await probe(result.checks[0]!);
    expect(verdict.status, verdict.message).toBe(gatus);
  });
});
