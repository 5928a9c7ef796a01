import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchangeCode, fetchWithToken } from '../../../../daemon/auth/oauth/token-exchange.js';
import { createEgressPolicy } from '../../../../probes/egress.js';
import { egressFetch } from '../../../../probes/egress-fetch.js';

// The token exchange carries the authorization code and the client secret, a provider API call
// the access token: a provider (or whoever answers in its place) that redirects must not have
// them sent on to another origin.

async function listen(handler: (req: IncomingMessage, body: string) => [number, Record<string, string>, string]): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const [status, headers, text] = handler(req, body);
      res.writeHead(status, headers).end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('OAuth calls to a provider', () => {
  const seenElsewhere: { url: string; authorization?: string; body: string }[] = [];
  let elsewhere: { server: Server; url: string };
  let provider: { server: Server; url: string };
  const deps = { fetch: egressFetch(createEgressPolicy({ denyPrivate: false })) };

  beforeAll(async () => {
    elsewhere = await listen((req, body) => {
      seenElsewhere.push({ url: req.url ?? '', authorization: req.headers.authorization, body });
      return [200, { 'content-type': 'application/json' }, JSON.stringify({ access_token: 'stolen', login: 'x' })];
    });
    provider = await listen((req) => [req.url === '/token' ? 307 : 302, { location: `${elsewhere.url}/catch${req.url}` }, '']);
  });
  afterAll(() => {
    elsewhere.server.close();
    provider.server.close();
  });

  it('never follow a redirect of the token endpoint: the code and the client secret stay with the provider', async () => {
    const attempt = exchangeCode(
      deps,
      { key: 'github', clientId: 'id', clientSecret: 'client-secret-value', tokenAuth: 'client_secret_post' },
      `${provider.url}/token`,
      {
        code: 'the-code',
        redirectUri: 'http://127.0.0.1/cb',
      },
    );
    await expect(attempt).rejects.toThrow(/token endpoint unreachable/);
    expect(seenElsewhere).toEqual([]);
  });

  it('never follow a redirect of a provider API: the access token stays with the provider', async () => {
    await expect(fetchWithToken(deps, 'github', `${provider.url}/user`, 'access-token-value')).rejects.toThrow(/API unreachable/);
    expect(seenElsewhere).toEqual([]);
  });
});
