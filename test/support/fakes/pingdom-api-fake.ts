import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// A protocol-level fake of the Pingdom API 3.1, as much of it as the import reads, following its
// reference (https://docs.pingdom.com/api/): `GET /api/3.1/checks` (`limit`, `offset`,
// `include_tags`) answers `{"checks": [...], "counts": {...}}`, `GET /api/3.1/checks/{checkid}`
// answers `{"check": {...}}`; the token is `Authorization: Bearer <token>`, and a refused one is
// `401 {"error": {"statuscode": 401, "statusdesc": "Unauthorized", "errormessage": ...}}`.
// The listing and the details are the fixtures composed from the reference's examples
// (test/fixtures/import/pingdom/listing.json, details.json); a listed check without a detail
// there answers 404, as one deleted between the listing and the detail would.

const fixtures = new URL('../../fixtures/import/pingdom/', import.meta.url);

export const PINGDOM_LISTING = JSON.parse(readFileSync(new URL('listing.json', fixtures), 'utf8')) as { checks: { id: number }[] };
const DETAILS = new Map(
  (JSON.parse(readFileSync(new URL('details.json', fixtures), 'utf8')) as { check: { id: number } }[]).map((detail) => [String(detail.check.id), detail]),
);

/** What the fake does for a token: answer, or fail as named. */
export type FakeTokenBehaviour = 'account' | 'rate-limited' | 'server-error';

export interface FakePingdomApi {
  url: string;
  requests: { method: string; path: string; search: string; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}

const error = (statuscode: number, statusdesc: string, errormessage: string) => JSON.stringify({ error: { statuscode, statusdesc, errormessage } });

export async function startFakePingdomApi(tokens: Record<string, FakeTokenBehaviour>): Promise<FakePingdomApi> {
  const requests: FakePingdomApi['requests'] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    requests.push({ method: req.method ?? '', path: url.pathname, search: url.search, headers: req.headers });
    const send = (status: number, body: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(body);
    };
    const token = req.headers.authorization?.replace(/^Bearer /, '');
    const behaviour = token !== undefined && Object.hasOwn(tokens, token) ? tokens[token] : undefined;
    if (behaviour === undefined) return send(401, error(401, 'Unauthorized', 'Invalid token'));
    if (behaviour === 'rate-limited') return send(429, error(429, 'Too Many Requests', 'Rate limit exceeded'), { 'retry-after': '60' });
    if (behaviour === 'server-error') return send(500, error(500, 'Internal Server Error', 'Internal error'));
    if (url.pathname === '/api/3.1/checks') {
      const offset = Number(url.searchParams.get('offset') ?? '0');
      const limit = Number(url.searchParams.get('limit') ?? '25000');
      const checks = PINGDOM_LISTING.checks.slice(offset, offset + limit);
      return send(200, JSON.stringify({ checks, counts: { total: PINGDOM_LISTING.checks.length, limited: checks.length, filtered: checks.length } }));
    }
    const detail = /^\/api\/3\.1\/checks\/(\d+)$/.exec(url.pathname);
    if (detail && DETAILS.has(detail[1])) return send(200, JSON.stringify(DETAILS.get(detail[1])));
    return send(404, error(404, 'Not Found', 'Check not found'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
