import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// A protocol-level fake of the Healthchecks.io Management API v3, as much of it as the import
// reads: `GET /api/v3/checks/` with the project's key in `X-Api-Key`. Followed:
// - https://healthchecks.io/docs/api/ ("Authentication", "List Existing Checks"): the listing is
//   `{"checks": [...]}`; a read-only key lists the checks with `unique_key` instead of `ping_url`,
//   `update_url`, `pause_url` and `resume_url`.
// - hc/api/decorators.py of healthchecks/healthchecks (`authorize_read`): a key that is not 32
//   characters long is `401 {"error": "missing api key"}`, an unknown one `401 {"error": "wrong api key"}`.
// The listings are the fixtures composed from the docs' examples (test/fixtures/import/healthchecks/).

const fixtures = new URL('../../fixtures/import/healthchecks/', import.meta.url);

/** The read-write listing (`checks.json`) and the read-only one (`read-only.json`). */
export const HEALTHCHECKS_LISTINGS = {
  full: readFileSync(new URL('checks.json', fixtures), 'utf8'),
  readOnly: readFileSync(new URL('read-only.json', fixtures), 'utf8'),
};

/** What the fake does for a key: list with a read-write or read-only key, or fail as named. */
export type FakeKeyBehaviour = 'full' | 'read-only' | 'rate-limited' | 'server-error' | 'not-json' | 'hang';

export interface FakeHealthchecksApi {
  /** The base URL (the instance's site root, with the prefix when one was given). */
  url: string;
  /** Every request, with its path and headers. */
  requests: { method: string; path: string; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}

/**
 * Starts the fake on 127.0.0.1. `keys` maps each 32-character key it knows to what it does;
 * `prefix` mounts the API below a path, as a self-hosted instance under a sub-path.
 */
export async function startFakeHealthchecksApi(keys: Record<string, FakeKeyBehaviour>, prefix = ''): Promise<FakeHealthchecksApi> {
  const requests: FakeHealthchecksApi['requests'] = [];
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    requests.push({ method: req.method ?? '', path, headers: req.headers });
    const send = (status: number, body: string, type = 'application/json', headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': type, ...headers });
      res.end(body);
    };
    if (path !== `${prefix}/api/v3/checks/`) return send(404, '<h1>Not Found</h1>', 'text/html');
    if (req.method !== 'GET') return send(405, '');
    const key = req.headers['x-api-key'];
    if (typeof key !== 'string' || key.length !== 32) return send(401, JSON.stringify({ error: 'missing api key' }));
    const behaviour = Object.hasOwn(keys, key) ? keys[key] : undefined;
    switch (behaviour) {
      case 'full':
        return send(200, HEALTHCHECKS_LISTINGS.full);
      case 'read-only':
        return send(200, HEALTHCHECKS_LISTINGS.readOnly);
      case 'rate-limited':
        return send(429, JSON.stringify({ error: 'rate limit exceeded' }), 'application/json', { 'retry-after': '20' });
      case 'server-error':
        return send(500, '<h1>Server Error (500)</h1>', 'text/html');
      case 'hang':
        return undefined;
      case 'not-json':
        return send(200, '<!doctype html><title>Sign in</title>', 'text/html');
      default:
        return send(401, JSON.stringify({ error: 'wrong api key' }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${prefix}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
