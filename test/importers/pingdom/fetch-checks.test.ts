import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ImportInputError } from '../../../importers/converter.js';
import { fetchHostedChecks } from '../../../importers/pingdom/fetch-checks.js';
import { convertHostedCheckApi } from '../../../importers/pingdom/index.js';
import { HostedApiError } from '../../../importers/shared/upstream-error.js';
import { PINGDOM_LISTING, startFakePingdomApi, type FakePingdomApi } from '../../support/fakes/pingdom-api-fake.js';

// The adapter of the hosted check API 3.1 (https://docs.pingdom.com/api/: GET /checks, then
// GET /checks/{checkid} per check, with Authorization: Bearer) against the protocol-level fake
// on 127.0.0.1. No token may appear in an error.

const TOKENS = { good: 'pd_good_7f3a9c2e', refused: 'pd_refused_0c4d', limited: 'pd_limited_3b7a', broken: 'pd_broken_6d2c' } as const;

let api: FakePingdomApi;
beforeAll(async () => {
  api = await startFakePingdomApi({ [TOKENS.good]: 'account', [TOKENS.limited]: 'rate-limited', [TOKENS.broken]: 'server-error' });
});
afterAll(() => api.close());

async function failure(token: string): Promise<HostedApiError> {
  const error = await fetchHostedChecks({ token, baseUrl: api.url }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(HostedApiError);
  expect(`${(error as Error).message} ${JSON.stringify(error)}`).not.toMatch(/pd_[a-z]+_/);
  return error as HostedApiError;
}

describe('fetching the hosted checks with a token', () => {
  test("reads the listing with its tags, then each check's detail, with the token as a Bearer header", async () => {
    const data = await fetchHostedChecks({ token: TOKENS.good, baseUrl: `${api.url}/` });
    expect(data.checks).toEqual(PINGDOM_LISTING.checks);
    // The fixtures hold details of two of the five listed checks; the others answer 404 and keep their listing entry.
    expect(data.details.map((detail) => (detail as { check: { id: number } }).check.id).sort()).toEqual([208656, 85975].sort());
    const paths = api.requests.map((request) => `${request.path}${request.search}`);
    expect(paths[0]).toBe('/api/3.1/checks?include_tags=true&limit=25000&offset=0');
    expect(paths.slice(1).sort()).toEqual(PINGDOM_LISTING.checks.map((check) => `/api/3.1/checks/${check.id}`).sort());
    expect(api.requests.every((request) => request.headers.authorization === `Bearer ${TOKENS.good}`)).toBe(true);
    const result = convertHostedCheckApi(data);
    expect(result).toEqual(convertHostedCheckApi(JSON.stringify(data)));
    expect(result.checks.map((check) => [check.slug, check.type])).toEqual([
      ['shop-front-page', 'http'],
      ['router', 'icmp'],
      ['mail-relay', 'smtp'],
      ['database-port', 'tcp'],
    ]);
  });

  test('says the token was refused, maps 429 and 5xx, never echoing the token', async () => {
    const refused = await failure(TOKENS.refused);
    expect(refused).toMatchObject({ reason: 'token-refused', status: 401 });
    expect(refused.message).toBe(
      `the hosted check API at ${api.url} refused the token (HTTP 401): check that it is a valid API token (read access) of the account to import from`,
    );
    expect(await failure(TOKENS.limited)).toMatchObject({ reason: 'rate-limited', status: 429, retryAfterSeconds: 60 });
    expect(await failure(TOKENS.broken)).toMatchObject({ reason: 'bad-status', status: 500 });
  });

  test('refuses what cannot be a token without a request', async () => {
    const calls = api.requests.length;
    await expect(fetchHostedChecks({ token: 'two words', baseUrl: api.url })).rejects.toBeInstanceOf(ImportInputError);
    expect(api.requests.length).toBe(calls);
  });
});
