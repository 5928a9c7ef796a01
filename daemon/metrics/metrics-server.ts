import { createServer, type Server } from 'node:http';
import type { Metrics } from './metrics.js';

/**
 * Serves `GET /metrics` in the Prometheus text format on its own address, so the series never
 * share a port with the public API.
 */
export async function startMetricsServer(metrics: Metrics, listen: { host: string; port: number }): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: the metrics are at /metrics\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      () => res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics could not be collected\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => resolve());
  });
  return server;
}
