import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ImportInputError, type ConversionResult } from '../../../importers/converter.js';
import { HostedApiError, convertHostedMonitorApi, fetchHostedMonitors, type HostedMonitorData } from '../../../importers/betterstack/index.js';

// The adapter against a real HTTP server on 127.0.0.1 that plays the hosted API. The token
// picks the server's behaviour; every token looks like a secret, and none may appear in an error.

const dir = new URL('../../fixtures/import/betterstack/', import.meta.url);
const account = JSON.parse(readFileSync(new URL('account.json', dir), 'utf8')) as Required<HostedMonitorData>;

interface Seen {
  readonly host: string | undefined;
  readonly path: string;
  readonly authorization: string | undefined;
}

const TOKENS = {
  good: 'tok_good_7f3a9c2e',
  relative: 'tok_relative_51d0',
  noGroups: 'tok_nogroups_a8b2',
  refused: 'tok_refused_0c4d',
  forbidden: 'tok_forbidden_9e1f',
  limited: 'tok_limited_3b7a',
  broken: 'tok_broken_6d2c',
  html: 'tok_html_1a9e',
  crossOrigin: 'tok_cross_origin_e4f8',
  elsewhere: 'tok_elsewhere_77aa',
  loop: 'tok_loop_2f6b',
  slow: 'tok_slow_8c3d',
  redirect: 'tok_redirect_5e0a',
} as const;

let server: Server;
let elsewhere: Server;
let origin: string;
let port: number;
let elsewhereOrigin: string;
const seen: Seen[] = [];
const seenElsewhere: Seen[] = [];

function page(data: readonly unknown[], next: string | null) {
  return { data, pagination: { first: null, last: null, prev: null, next } };
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function handle(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', origin);
  seen.push({ host: req.headers.host, path: `${url.pathname}${url.search}`, authorization: req.headers.authorization });
  const token = req.headers.authorization?.replace(/^Bearer /, '');
  const pageNumber = Number(url.searchParams.get('page') ?? '1');
  const list = url.pathname.replace(/^(\/prefix)?\/api\/v2\//, '');
  switch (token) {
    case TOKENS.refused:
      return json(res, 401, { errors: 'Invalid Team API token' });
    case TOKENS.forbidden:
      return json(res, 403, { errors: 'Forbidden' });
    case TOKENS.limited:
      return json(res, 429, { errors: 'Too many requests' }, { 'retry-after': '30' });
    case TOKENS.broken:
      return json(res, 500, { errors: 'Internal error' });
    case TOKENS.html:
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end('<html>maintenance</html>');
    case TOKENS.crossOrigin:
      return json(res, 200, page([], `http://localhost:${port}/api/v2/monitors?page=2`));
    case TOKENS.elsewhere:
      return json(res, 200, page([], `${elsewhereOrigin}/api/v2/monitors?page=2`));
    case TOKENS.loop:
      return json(res, 200, page([], `${origin}${url.pathname}${url.search}`));
    case TOKENS.slow:
      setTimeout(() => json(res, 200, page([], null)), 2_000).unref();
      return undefined;
    case TOKENS.redirect:
      res.writeHead(302, { location: `${elsewhereOrigin}/api/v2/monitors` });
      return res.end();
    case TOKENS.good:
    case TOKENS.relative:
    case TOKENS.noGroups: {
      if (list === 'monitors') {
        // Three pages of the fixture's monitors.
        const third = Math.ceil(account.monitors.length / 3);
        const link = (n: number) => (token === TOKENS.relative ? `/api/v2/monitors?page=${n}` : `${origin}/api/v2/monitors?page=${n}`);
        const data = account.monitors.slice((pageNumber - 1) * third, pageNumber * third);
        return json(res, 200, page(data, pageNumber < 3 ? link(pageNumber + 1) : null));
      }
      if (list === 'heartbeats') return json(res, 200, page(account.heartbeats, null));
      if (token === TOKENS.noGroups) return json(res, 404, { errors: 'Not found' });
      if (list === 'monitor-groups') return json(res, 200, page(account.monitorGroups, null));
      if (list === 'heartbeat-groups') return json(res, 200, page(account.heartbeatGroups, null));
      return json(res, 404, { errors: 'Not found' });
    }
    default:
      return json(res, 401, { errors: 'Invalid Team API token' });
  }
}

function listen(target: Server): Promise<number> {
  return new Promise((resolve) => target.listen(0, '127.0.0.1', () => resolve((target.address() as AddressInfo).port)));
}

beforeAll(async () => {
  server = createServer(handle);
  port = await listen(server);
  origin = `http://127.0.0.1:${port}`;
  elsewhere = createServer((req, res) => {
    seenElsewhere.push({ host: req.headers.host, path: req.url ?? '', authorization: req.headers.authorization });
    json(res, 200, page([], null));
  });
  elsewhereOrigin = `http://127.0.0.1:${await listen(elsewhere)}`;
});

afterAll(async () => {
  await Promise.all([server, elsewhere].map((s) => new Promise((resolve) => s.close(resolve))));
});

/** The error a fetch fails with; checks that it is a HostedApiError that does not contain the token. */
async function failure(token: string, options: { baseUrl?: string; requestTimeoutMs?: number } = {}): Promise<HostedApiError> {
  const error: unknown = await fetchHostedMonitors({ token, baseUrl: options.baseUrl ?? origin, requestTimeoutMs: options.requestTimeoutMs }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(HostedApiError);
  const apiError = error as HostedApiError;
  expect(apiError.code).toBe('UPSTREAM_FAILED');
  for (const text of [apiError.message, String(apiError.stack), JSON.stringify(apiError), String(apiError.cause)]) {
    expect(text).not.toContain(token);
  }
  return apiError;
}

describe('reading the lists', () => {
  test('follows pagination.next over three pages and reads every list with the bearer token', async () => {
    seen.length = 0;
    const data = await fetchHostedMonitors({ token: TOKENS.good, baseUrl: origin });
    expect(data).toEqual({
      monitors: account.monitors,
      heartbeats: account.heartbeats,
      monitorGroups: account.monitorGroups,
      heartbeatGroups: account.heartbeatGroups,
    });
    expect(seen.map((request) => request.path)).toEqual([
      '/api/v2/monitors?per_page=250',
      '/api/v2/monitors?page=2',
      '/api/v2/monitors?page=3',
      '/api/v2/heartbeats?per_page=250',
      '/api/v2/monitor-groups?per_page=250',
      '/api/v2/heartbeat-groups?per_page=250',
    ]);
    expect(new Set(seen.map((request) => request.authorization))).toEqual(new Set([`Bearer ${TOKENS.good}`]));
  });

  test('what it returns converts exactly like the fixture, as an object or as JSON text', async () => {
    const data = await fetchHostedMonitors({ token: TOKENS.good, baseUrl: origin });
    const expected = JSON.parse(readFileSync(new URL('account.expected.json', dir), 'utf8')) as ConversionResult;
    const result = convertHostedMonitorApi(data);
    expect(result.checks).toEqual(expected.checks);
    expect(result).toEqual(convertHostedMonitorApi(account));
    expect(convertHostedMonitorApi(JSON.stringify(data))).toEqual(result);
  });

  test('relative next links are followed on the same origin', async () => {
    const data = await fetchHostedMonitors({ token: TOKENS.relative, baseUrl: origin });
    expect(data.monitors).toHaveLength(account.monitors.length);
  });

  test('group lists the account cannot read are left empty', async () => {
    const data = await fetchHostedMonitors({ token: TOKENS.noGroups, baseUrl: origin });
    expect(data.monitors).toHaveLength(account.monitors.length);
    expect(data.monitorGroups).toEqual([]);
    expect(data.heartbeatGroups).toEqual([]);
  });

  test('a base URL with a path keeps it', async () => {
    seen.length = 0;
    await fetchHostedMonitors({ token: TOKENS.noGroups, baseUrl: `${origin}/prefix/` }).catch(() => undefined);
    expect(seen[0]?.path).toBe('/prefix/api/v2/monitors?per_page=250');
  });
});

describe('upstream failures', () => {
  test('401: the token was refused', async () => {
    const error = await failure(TOKENS.refused);
    expect(error).toMatchObject({ reason: 'token-refused', status: 401 });
    expect(error.message).toMatch(/refused the token \(HTTP 401\)/);
  });

  test('403: the token was refused', async () => {
    expect(await failure(TOKENS.forbidden)).toMatchObject({ reason: 'token-refused', status: 403 });
  });

  test('429: rate-limited, with the wait from Retry-After', async () => {
    const error = await failure(TOKENS.limited);
    expect(error).toMatchObject({ reason: 'rate-limited', status: 429, retryAfterSeconds: 30 });
    expect(error.message).toMatch(/rate-limiting requests \(HTTP 429\): try again in 30 s/);
  });

  test('500 and non-JSON answers', async () => {
    expect(await failure(TOKENS.broken)).toMatchObject({ reason: 'bad-status', status: 500 });
    expect(await failure(TOKENS.html)).toMatchObject({ reason: 'bad-response' });
  });

  test('an unreachable port', async () => {
    const closed = createServer();
    const closedPort = await listen(closed);
    await new Promise((resolve) => closed.close(resolve));
    const error = await failure(TOKENS.good, { baseUrl: `http://127.0.0.1:${closedPort}` });
    expect(error.reason).toBe('unreachable');
    expect(error.message).toBe(`the hosted monitoring API at http://127.0.0.1:${closedPort} cannot be reached (ECONNREFUSED)`);
  });

  test('an API that does not answer in time', async () => {
    const error = await failure(TOKENS.slow, { requestTimeoutMs: 200 });
    expect(error.reason).toBe('timeout');
    expect(error.message).toMatch(/did not answer in time/);
  });

  test('a next page that never ends is not followed for ever', async () => {
    expect(await failure(TOKENS.loop)).toMatchObject({ reason: 'bad-response' });
  });
});

describe('the token stays with the configured API', () => {
  test('a next link to another origin on the same host is refused, and nothing is sent there', async () => {
    seen.length = 0;
    const error = await failure(TOKENS.crossOrigin);
    expect(error.reason).toBe('cross-origin');
    expect(error.message).toContain(`http://localhost:${port}`);
    expect(seen.map((request) => request.host)).toEqual([`127.0.0.1:${port}`]);
  });

  test('a next link to another server is refused, and that server receives nothing', async () => {
    seenElsewhere.length = 0;
    expect(await failure(TOKENS.elsewhere)).toMatchObject({ reason: 'cross-origin' });
    expect(seenElsewhere).toEqual([]);
  });

  test('redirects are not followed', async () => {
    seenElsewhere.length = 0;
    expect(await failure(TOKENS.redirect)).toMatchObject({ reason: 'bad-status', status: 302 });
    expect(seenElsewhere).toEqual([]);
  });

  test('a token that cannot be sent in a header is an input error, and nothing is sent', async () => {
    seen.length = 0;
    const token = 'tok_line\nbreak_4c1d';
    const error: unknown = await fetchHostedMonitors({ token, baseUrl: origin }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ImportInputError);
    expect((error as Error).message).not.toContain('tok_line');
    expect(seen).toEqual([]);
  });

  test('a base URL with credentials is refused before anything is sent', async () => {
    seen.length = 0;
    const error = await failure(TOKENS.good, { baseUrl: `http://user:pw@127.0.0.1:${port}` });
    expect(error.message).not.toContain('pw');
    expect(seen).toEqual([]);
  });
});
