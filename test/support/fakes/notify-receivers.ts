import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

/** A request as a fake receiver got it. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  json: any;
}

export interface FakeReceivers {
  url: string;
  requests: ReceivedRequest[];
  /** The requests whose path starts with `prefix`. */
  at(prefix: string): ReceivedRequest[];
  /** Waits until `count` requests under `prefix` arrived, or throws after `timeoutMs`. */
  waitFor(prefix: string, count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

// What each service answers to a request it accepts, by the path prefix the tests give it. The
// answers follow the services' documented responses (Slack and Telegram answer 200 with `ok`,
// PagerDuty and Opsgenie 202), and each fake refuses a request missing the fields its API requires.
function answer(path: string, json: any): [number, unknown] {
  if (path.startsWith('/slack-api/chat.postMessage'))
    return json?.channel && json?.text ? [200, { ok: true, ts: '1.2' }] : [200, { ok: false, error: 'no_text' }];
  if (path.startsWith('/telegram/bot'))
    return /\/sendMessage$/.test(path) && json?.chat_id && json?.text ? [200, { ok: true, result: { message_id: 1 } }] : [400, { ok: false }];
  if (path.startsWith('/pagerduty/v2/enqueue')) {
    const valid =
      json?.routing_key &&
      json?.dedup_key &&
      ['trigger', 'acknowledge', 'resolve'].includes(json?.event_action) &&
      (json.event_action !== 'trigger' || (json.payload?.summary && json.payload?.source && json.payload?.severity));
    return valid ? [202, { status: 'success', message: 'Event processed', dedup_key: json.dedup_key }] : [400, { status: 'invalid event' }];
  }
  if (path.startsWith('/opsgenie/v2/alerts')) return [202, { result: 'Request will be processed', took: 0.1, requestId: 'r' }];
  if (path.startsWith('/pushover/1/messages.json'))
    return json?.token && json?.user && json?.message ? [200, { status: 1, request: 'r' }] : [400, { status: 0 }];
  if (path.startsWith('/teams')) return json?.attachments?.[0]?.contentType === 'application/vnd.microsoft.card.adaptive' ? [202, ''] : [400, ''];
  if (path.startsWith('/discord')) return json?.content ? [204, ''] : [400, { message: 'Cannot send an empty message' }];
  if (path.startsWith('/moved')) return [302, 'see elsewhere'];
  if (path.startsWith('/ntfy')) return json?.topic && json?.message ? [200, { id: 'x', event: 'message', topic: json.topic }] : [400, { error: 'invalid' }];
  return [200, 'ok'];
}

/**
 * Protocol-level fakes of the notification services (Slack, Discord, Teams, Telegram, PagerDuty,
 * Opsgenie, Google Chat, Mattermost, ntfy, Pushover and a generic webhook) on one loopback
 * server, each under its own path prefix: real HTTP(S), recording every request. `port` lets a
 * test start a receiver late where the daemon already sends.
 */
export async function startFakeReceivers(options: { tls?: { cert: string; key: string }; port?: number } = {}): Promise<FakeReceivers> {
  const { tls, port: wantedPort = 0 } = options;
  const requests: ReceivedRequest[] = [];
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: any;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const path = req.url ?? '/';
      requests.push({ method: req.method ?? '', path, headers: req.headers, body, json });
      const [status, reply] = answer(path, json);
      res.writeHead(status, {
        'content-type': typeof reply === 'string' ? 'text/plain' : 'application/json',
        ...(status === 302 ? { location: 'http://169.254.169.254/' } : {}),
      });
      res.end(typeof reply === 'string' ? reply : JSON.stringify(reply));
    });
  };
  const server: Server = tls ? createHttpsServer(tls, handle) : createHttpServer(handle);
  await new Promise<void>((resolve) => server.listen(wantedPort, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const at = (prefix: string) => requests.filter((r) => r.path.startsWith(prefix));
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    requests,
    at,
    async waitFor(prefix, count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (at(prefix).length < count) {
        if (Date.now() > deadline) throw new Error(`${at(prefix).length} of ${count} requests to ${prefix} arrived within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return at(prefix);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
