import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DROPPED_BODY_BYTES } from '../../probes/http-status-request.js';
import { checkOf, probe, timedProbe } from './support/probe-run.js';

// An HTTP check without a keyword or JSON queries reads only the status and drops the body as it
// comes (probes/http-status-request.ts). It must end as undici's request() with body.dump() did
// before: a body is read up to 128 KiB and then cut (undici/lib/api/readable.js, dump()), a body
// that fails after the status does not fail the run, and a run's deadline ends a body that never ends.

const CHUNK = Buffer.alloc(16 * 1024, 'x');
const seen: { url?: string; written: number } = { written: 0 };
/** The paths whose connection has closed. */
const closed = new Set<string>();

const ROUTES: Record<string, (request: IncomingMessage, response: ServerResponse) => void> = {
  '/endless': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    const write = () => {
      while (!response.destroyed) {
        seen.written += CHUNK.length;
        if (!response.write(CHUNK)) return void response.once('drain', write);
      }
    };
    write();
  },
  '/announced-large': (_request, response) => {
    response.writeHead(200, { 'content-length': String(64 * 1024 * 1024) });
    response.write(CHUNK);
  },
  '/stalls': (_request, response) => {
    response.writeHead(200, { 'content-length': '1000' });
    response.write('a part of the body, and then nothing more');
  },
  '/breaks': (request, response) => {
    response.writeHead(200, { 'content-length': '1000' });
    response.write('a part of the body', () => request.socket.destroy());
  },
  '/hints': (_request, response) => {
    response.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' });
    setTimeout(() => response.writeHead(204).end(), 20);
  },
  '/hints-then-nothing': (request, response) => {
    response.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' }, () => setTimeout(() => request.socket.destroy(), 20));
  },
  '/echo-url': (request, response) => {
    seen.url = request.url;
    response.end('ok');
  },
};

describe('an HTTP check that reads only the status (real local server)', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((request, response) => {
      const path = new URL(request.url ?? '/', 'http://x').pathname;
      request.socket.once('close', () => closed.add(path));
      ROUTES[path]?.(request, response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('is up on an endless body once 128 KiB of it were dropped, and cuts the connection', async () => {
    const result = await timedProbe(checkOf('http', `${base}/endless`, {}, { timeoutMs: 5_000 }));
    expect(result).toMatchObject({ status: 'up', message: 'status 200' });
    expect(result.wallMs).toBeLessThan(4_000);
    await expect.poll(() => closed.has('/endless')).toBe(true);
    // The server wrote on until the cut: more than the limit, far less than five seconds of loopback.
    expect(seen.written).toBeGreaterThan(MAX_DROPPED_BODY_BYTES);
  });

  it('is up at once on a Content-Length over 128 KiB, without reading the body', async () => {
    const result = await timedProbe(checkOf('http', `${base}/announced-large`, {}, { timeoutMs: 5_000 }));
    expect(result).toMatchObject({ status: 'up', message: 'status 200' });
    expect(result.wallMs).toBeLessThan(4_000);
  });

  it('ends a body that stops coming at timeoutMs, and closes the connection', async () => {
    const result = await timedProbe(checkOf('http', `${base}/stalls`, {}, { timeoutMs: 300 }));
    expect(result).toMatchObject({ status: 'down', message: 'timeout after 300 ms' });
    expect(result.wallMs).toBeGreaterThanOrEqual(290);
    await expect.poll(() => closed.has('/stalls')).toBe(true);
  });

  it('stays up when the body breaks off after the status, as a dumped body did', async () => {
    const result = await probe(checkOf('http', `${base}/breaks`));
    expect(result).toMatchObject({ status: 'up', message: 'status 200' });
  });

  it('is judged on the final status, after informational answers', async () => {
    const result = await probe(checkOf('http', `${base}/hints`, { expectedStatusCodes: [204] }));
    expect(result).toMatchObject({ status: 'up', message: 'status 204' });
    // An informational answer is no answer: a connection that ends after it fails the run.
    const broken = await probe(checkOf('http', `${base}/hints-then-nothing`, { expectedStatusCodes: [103] }));
    expect(broken.status).toBe('down');
    expect(broken.message).not.toContain('103');
  });

  it('sends the path with its query, without the fragment', async () => {
    const result = await probe(checkOf('http', `${base}/echo-url?a=1&b=%20x#part`));
    expect(result.status).toBe('up');
    expect(seen.url).toBe('/echo-url?a=1&b=%20x');
  });
});
