import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ImportInputError } from '../../../importers/converter.js';
import { convertCronMonitorApi } from '../../../importers/healthchecks/index.js';
import { fetchCronMonitorChecks } from '../../../importers/healthchecks/fetch-checks.js';
import { openTokenApi } from '../../../importers/shared/token-api.js';
import { HostedApiError } from '../../../importers/shared/upstream-error.js';
import { HEALTHCHECKS_LISTINGS, startFakeHealthchecksApi, type FakeHealthchecksApi } from '../../support/fakes/healthchecks-api-fake.js';

// The adapter of the cron monitor's Management API v3 (https://healthchecks.io/docs/api/, "List
// Existing Checks": GET /api/v3/checks/ with X-Api-Key) against the protocol-level fake on
// 127.0.0.1. Keys are 32 characters, as the API requires; none may appear in an error.

const KEYS = {
  full: 'hcw_full_0123456789abcdefghijklm',
  readOnly: 'hcr_read_0123456789abcdefghijklm',
  wrong: 'hcx_wrong_0123456789abcdefghijkl',
  limited: 'hcl_limit_0123456789abcdefghijkl',
  broken: 'hcb_broken_0123456789abcdefghijk',
  html: 'hch_html_0123456789abcdefghijklm',
  hang: 'hcs_hang_0123456789abcdefghijklm',
} as const;

let api: FakeHealthchecksApi;
let prefixed: FakeHealthchecksApi;
beforeAll(async () => {
  for (const key of Object.values(KEYS)) expect(key).toHaveLength(32);
  const keys = {
    [KEYS.full]: 'full',
    [KEYS.readOnly]: 'read-only',
    [KEYS.limited]: 'rate-limited',
    [KEYS.broken]: 'server-error',
    [KEYS.html]: 'not-json',
    [KEYS.hang]: 'hang',
  } as const;
  api = await startFakeHealthchecksApi(keys);
  prefixed = await startFakeHealthchecksApi(keys, '/healthchecks');
});
afterAll(async () => {
  await api.close();
  await prefixed.close();
});

const keyless = (text: string) => expect(text).not.toMatch(/hc[wrxlbhs]_[a-z]+_0123456789/);

async function failure(apiKey: string, baseUrl = api.url, requestTimeoutMs?: number): Promise<HostedApiError> {
  const error = await fetchCronMonitorChecks({ apiKey, baseUrl, requestTimeoutMs }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(HostedApiError);
  keyless(String((error as Error).message));
  keyless(JSON.stringify(error));
  return error as HostedApiError;
}

describe('fetching the cron monitor checks with an API key', () => {
  test('reads the listing with the read-write key in X-Api-Key, and converts it as the saved listing', async () => {
    const data = await fetchCronMonitorChecks({ apiKey: KEYS.full, baseUrl: api.url });
    expect(data).toEqual(JSON.parse(HEALTHCHECKS_LISTINGS.full));
    const request = api.requests.at(-1)!;
    expect(request).toMatchObject({ method: 'GET', path: '/api/v3/checks/' });
    expect(request.headers['x-api-key']).toBe(KEYS.full);
    expect(request.headers.authorization).toBeUndefined();
    expect(convertCronMonitorApi(data)).toEqual(convertCronMonitorApi(HEALTHCHECKS_LISTINGS.full));
  });

  test('reads the listing of a read-only key, whose checks have no ping URL', async () => {
    const data = await fetchCronMonitorChecks({ apiKey: KEYS.readOnly, baseUrl: `${api.url}/` });
    expect(data.checks).toHaveLength(2);
    const result = convertCronMonitorApi(data);
    expect(result.checks.every((check) => check.pingToken === undefined)).toBe(true);
    expect(result.warnings.filter((w) => w.code === 'SECRET_DROPPED').map((w) => w.message)).toEqual([
      expect.stringContaining('read-only API key'),
      expect.stringContaining('read-only API key'),
    ]);
  });

  test('reads a self-hosted instance below a path', async () => {
    const data = await fetchCronMonitorChecks({ apiKey: KEYS.full, baseUrl: prefixed.url });
    expect(data.checks).toHaveLength(5);
    expect(prefixed.requests.at(-1)?.path).toBe('/healthchecks/api/v3/checks/');
  });

  test('says the key was refused (401), for a wrong key and for one of the wrong length, never echoing it', async () => {
    for (const key of [KEYS.wrong, 'short-key']) {
      const error = await failure(key);
      expect(error).toMatchObject({ reason: 'token-refused', status: 401, code: 'UPSTREAM_FAILED' });
      expect(error.message).toBe(
        `the cron monitor's Management API at ${api.url} refused the API key (HTTP 401): ` +
          "check that it is the API key of the project to import from (the project's Settings, API Access)",
      );
    }
  });

  test('maps 429, 5xx, an answer that is not JSON and one that is not a listing', async () => {
    expect(await failure(KEYS.limited)).toMatchObject({ reason: 'rate-limited', status: 429, retryAfterSeconds: 20 });
    const broken = await failure(KEYS.broken);
    expect(broken).toMatchObject({ reason: 'bad-status', status: 500 });
    expect(broken.message).toBe(`the cron monitor's Management API at ${api.url} answered HTTP 500`);
    expect((await failure(KEYS.html)).message).toMatch(/answered with something other than JSON$/);
    // The base URL of something else than the API: a 404 page.
    expect(await failure(KEYS.full, `${api.url}/not-the-api`)).toMatchObject({ reason: 'bad-status', status: 404 });
  });

  test('refuses a listing that has no checks list', async () => {
    const server = createServer((_req, res) => res.end('{"error": "nothing"}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const error = await failure(KEYS.full, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      expect(error).toMatchObject({ reason: 'bad-response' });
      expect(error.message).toMatch(/answered \/api\/v3\/checks\/ with something other than a checks listing/);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  test('gives up on an API that does not answer, and on one that cannot be reached', async () => {
    expect(await failure(KEYS.hang, api.url, 300)).toMatchObject({ reason: 'timeout' });
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const unreachable = await failure(KEYS.full, `http://127.0.0.1:${port}`);
    expect(unreachable.reason).toBe('unreachable');
    expect(unreachable.message).toMatch(/cannot be reached \(ECONNREFUSED\)/);
  });

  test('refuses what cannot be a key, or a base URL with credentials, without a request', async () => {
    const calls = api.requests.length;
    await expect(fetchCronMonitorChecks({ apiKey: 'two words', baseUrl: api.url })).rejects.toBeInstanceOf(ImportInputError);
    const error = await failure(KEYS.full, api.url.replace('http://', 'http://user:pass@'));
    expect(error.message).toMatch(/base URL of the cron monitor's Management API is not an http\(s\) URL without credentials/);
    expect(api.requests.length).toBe(calls);
  });

  test('stops reading an answer larger than the limit', async () => {
    const exchange = openTokenApi({
      baseUrl: api.url,
      apiName: "the cron monitor's Management API",
      credentialName: 'the API key',
      refusedHint: '',
      authHeaders: { 'x-api-key': KEYS.full },
      maxBytes: 1024,
    });
    try {
      const error = await exchange.getJson(exchange.url('/api/v3/checks/')).catch((caught: unknown) => caught);
      expect(error, String(error)).toMatchObject({
        reason: 'bad-response',
        message: `the cron monitor's Management API at ${api.url} sent a page larger than 1 KiB`,
      });
    } finally {
      await exchange.close();
    }
  });

  test('passes a programming error on as it is instead of calling the API unreachable', async () => {
    // A dispatcher that fails the way a bug does: a TypeError without a system or library code.
    const broken = {
      dispatch: () => {
        throw new TypeError('not a function');
      },
    } as unknown as Parameters<typeof fetchCronMonitorChecks>[0]['dispatcher'];
    const error = await fetchCronMonitorChecks({ apiKey: KEYS.full, baseUrl: api.url, dispatcher: broken }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TypeError);
    expect(error).not.toBeInstanceOf(HostedApiError);
  });
});
