import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkOf, probe } from './support/probe-run.js';

// What the HTTP probe reads of a body: decoded whatever the server's Content-Encoding, all of
// it for a keyword, and the settings an import from Uptime Kuma uses to reach Kuma's verdicts
// (keywordSearch, nonJsonBody, compareAs, scalarOnly). Kuma 2.5.3: server/model/monitor.js
// (keyword and json-query branches; axios decodes gzip/deflate/br and reads the whole body) and
// src/util.ts evaluateJsonQuery.

const STATUS = JSON.stringify({ status: 'ok', path: 'a/b', note: 'caf\u00e9' });
const MIB = 1_048_576;
const bigPage = `${'x'.repeat(3 * MIB)}NEEDLE-AT-THE-END`;

type Handler = (request: IncomingMessage, response: ServerResponse, body: string) => void;

const ROUTES: Record<string, Handler> = {
  '/gzip': (_q, r) => r.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'application/json' }).end(gzipSync(STATUS)),
  '/deflate': (_q, r) => r.writeHead(200, { 'content-encoding': 'deflate' }).end(deflateSync(STATUS)),
  '/br': (_q, r) => r.writeHead(200, { 'content-encoding': 'br' }).end(brotliCompressSync(STATUS)),
  '/big': (_q, r) => r.end(bigPage),
  '/echo': (q, r, body) => r.end(JSON.stringify({ method: q.method, body })),
  // Pretty-printed, with an escaped slash and a \u escape: Kuma searches {"path":"a/b","note":"café"}.
  '/pretty': (_q, r) => r.end('{\n  "path": "a\\/b",\n  "note": "caf\\u00e9"\n}'),
  '/version': (_q, r) => r.end('{"text": "2.10", "number": 2.10, "list": [1, 2], "object": {"a": 1}, "none": null, "word": "up"}'),
  '/plain': (_q, r) => r.end('all good'),
};

function handle(request: IncomingMessage, response: ServerResponse) {
  let body = '';
  request.on('data', (chunk: Buffer) => (body += chunk.toString()));
  request.on('end', () => ROUTES[request.url ?? '']?.(request, response, body) ?? response.writeHead(404).end());
}

describe('http probe: the body it reads', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer(handle);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('decodes gzip, deflate and br bodies sent without being asked, for keywords and JSON', async () => {
    for (const path of ['/gzip', '/deflate', '/br']) {
      const keyword = await probe(checkOf('http', `${base}${path}`, { keyword: { value: '"status":"ok"' } }));
      expect(keyword, path).toMatchObject({ status: 'up' });
      const json = await probe(checkOf('http', `${base}${path}`, { jsonQueries: [{ expression: 'note', expected: 'caf\u00e9' }] }));
      expect(json, path).toMatchObject({ status: 'up' });
    }
  });

  it('finds a keyword past the first MiBs of a large body, and reports one absent from all of it', async () => {
    expect(await probe(checkOf('http', `${base}/big`, { keyword: { value: 'NEEDLE-AT-THE-END' } }))).toMatchObject({ status: 'up' });
    expect(await probe(checkOf('http', `${base}/big`, { keyword: { value: 'needle-at-the-end', caseSensitive: false } }))).toMatchObject({ status: 'up' });
    expect(await probe(checkOf('http', `${base}/big`, { keyword: { value: 'NEEDLE-AT-THE-END', expect: 'absent' } }))).toMatchObject({
      status: 'down',
      message: 'keyword "NEEDLE-AT-THE-END" found in the body',
    });
    expect(await probe(checkOf('http', `${base}/big`, { keyword: { value: 'NOT-THERE' } }))).toMatchObject({ status: 'down' });
  });

  it('sends the body of a GET request', async () => {
    const check = checkOf('http', `${base}/echo`, { method: 'GET', body: '{"q":1}', jsonQueries: [{ expression: 'body', expected: '{"q":1}' }] });
    expect(await probe(check)).toMatchObject({ status: 'up' });
  });

  it('keywordSearch reserialised-json searches a JSON body as compact JSON written anew; raw searches the text', async () => {
    const url = `${base}/pretty`;
    const compact = { keyword: { value: '"path":"a/b","note":"caf\u00e9"' } };
    expect((await probe(checkOf('http', url, { ...compact, keywordSearch: 'reserialised-json' }))).status).toBe('up');
    expect((await probe(checkOf('http', url, compact))).status).toBe('down');
    expect((await probe(checkOf('http', url, { keyword: { value: 'a\\/b' }, keywordSearch: 'reserialised-json' }))).status).toBe('down');
    expect((await probe(checkOf('http', url, { keyword: { value: 'a\\/b' } }))).status).toBe('up');
    // A body that is not JSON is searched as it is.
    expect((await probe(checkOf('http', `${base}/plain`, { keyword: { value: 'all good' }, keywordSearch: 'reserialised-json' }))).status).toBe('up');
  });

  it('compareAs text compares == and != as text and orders numbers only', async () => {
    const url = `${base}/version`;
    const verdict = async (query: Record<string, unknown>) => (await probe(checkOf('http', url, { jsonQueries: [query] }))).status;
    // "2.10" and 2.10 (read as the number 2.1) against "2.1" and "2.10".
    expect(await verdict({ expression: 'text', expected: '2.1' })).toBe('up');
    expect(await verdict({ expression: 'text', expected: '2.1', compareAs: 'text' })).toBe('down');
    expect(await verdict({ expression: 'text', expected: '2.10', compareAs: 'text' })).toBe('up');
    expect(await verdict({ expression: 'number', expected: '2.10', compareAs: 'text' })).toBe('down');
    expect(await verdict({ expression: 'number', operator: '!=', expected: '2.10', compareAs: 'text' })).toBe('up');
    expect(await verdict({ expression: 'text', operator: '>', expected: '2.09', compareAs: 'text' })).toBe('up');
    // Ordering a word: as text it holds ("up" > "a"); as Kuma's $number it fails.
    expect(await verdict({ expression: 'word', operator: '>', expected: 'a' })).toBe('up');
    expect(await verdict({ expression: 'word', operator: '>', expected: 'a', compareAs: 'text' })).toBe('down');
  });

  it('scalarOnly fails on arrays, objects and null, which the default compares as text', async () => {
    const url = `${base}/version`;
    const result = async (query: Record<string, unknown>) => probe(checkOf('http', url, { jsonQueries: [query] }));
    expect((await result({ expression: 'list', operator: 'contains', expected: '2' })).status).toBe('up');
    expect(await result({ expression: 'list', operator: 'contains', expected: '2', scalarOnly: true })).toMatchObject({
      status: 'down',
      message: 'JSON list is an array ([1,2]); only a string, number or boolean is compared',
    });
    expect((await result({ expression: 'object', operator: '!=', expected: 'x' })).status).toBe('up');
    expect((await result({ expression: 'object', operator: '!=', expected: 'x', scalarOnly: true })).status).toBe('down');
    expect((await result({ expression: 'none', expected: 'null' })).status).toBe('up');
    expect((await result({ expression: 'none', expected: 'null', scalarOnly: true })).status).toBe('down');
  });

  it('nonJsonBody text evaluates the expressions on a body that is not JSON', async () => {
    const url = `${base}/plain`;
    const query = { expression: '$', operator: 'contains', expected: 'good' };
    expect(await probe(checkOf('http', url, { jsonQueries: [query] }))).toMatchObject({ status: 'down', message: 'the response body is not JSON' });
    expect((await probe(checkOf('http', url, { jsonQueries: [query], nonJsonBody: 'text' }))).status).toBe('up');
  });
});
