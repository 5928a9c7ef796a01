import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A local HTTP target that answers 200 and remembers when each path was requested. */
export interface HitCounter {
  url: string;
  /** Request times (epoch ms) by path. */
  hits: Map<string, number[]>;
  close(): Promise<void>;
}

/** Starts a hit-counting HTTP server on 127.0.0.1, port 0. */
export async function startHitCounter(): Promise<HitCounter> {
  const hits = new Map<string, number[]>();
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.set(path, [...(hits.get(path) ?? []), Date.now()]);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
