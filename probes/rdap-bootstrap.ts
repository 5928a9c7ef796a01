import { request, type Dispatcher } from 'undici';
import { ProbeFailure } from './probe.js';

/** IANA's registry of RDAP servers per top-level domain (RFC 9224). */
export const DEFAULT_RDAP_BOOTSTRAP_URL = 'https://data.iana.org/rdap/dns.json';

/** The bootstrap file changes a few times a month: one read a day is plenty. */
const BOOTSTRAP_TTL_MS = 24 * 3600 * 1000;
const MAX_BOOTSTRAP_BYTES = 4 * 1024 * 1024;

/**
 * The RDAP servers per top-level domain, read from the bootstrap file at `url` and kept for a
 * day. The runner keeps one (on AppDeps.caches, through ProbeCaches); a one-off run gets its own.
 */
export class RdapBootstrap {
  private cached: { readAt: number; servers: Map<string, string[]> } | undefined;

  /** `url`: where the bootstrap file is read (`SVC_RDAP_BOOTSTRAP_URL`). */
  constructor(readonly url: string = DEFAULT_RDAP_BOOTSTRAP_URL) {}

  /**
   * The RDAP base URLs that serve `domain`: those of its longest registered suffix in the
   * bootstrap file (read through the run's dispatcher, so the egress policy applies).
   */
  async serversFor(domain: string, dispatcher: Dispatcher, signal: AbortSignal, now: number): Promise<string[]> {
    if (!this.cached || now - this.cached.readAt > BOOTSTRAP_TTL_MS) {
      this.cached = { readAt: now, servers: await readBootstrap(this.url, dispatcher, signal) };
    }
    const labels = domain.toLowerCase().replace(/\.$/, '').split('.');
    for (let start = 1; start < labels.length; start++) {
      const servers = this.cached.servers.get(labels.slice(start).join('.'));
      if (servers) return servers;
    }
    throw new ProbeFailure(`no RDAP server is known for .${labels.at(-1)}`);
  }
}

async function readBootstrap(url: string, dispatcher: Dispatcher, signal: AbortSignal): Promise<Map<string, string[]>> {
  const response = await request(url, { dispatcher, signal, headers: { accept: 'application/json' } });
  if (response.statusCode !== 200) {
    await response.body.dump();
    throw new ProbeFailure(`the RDAP bootstrap file answered HTTP ${response.statusCode}`);
  }
  const length = Number(response.headers['content-length'] ?? 0);
  if (length > MAX_BOOTSTRAP_BYTES) {
    await response.body.dump();
    throw new ProbeFailure('the RDAP bootstrap file is too large');
  }
  const file = (await response.body.json().catch(() => undefined)) as { services?: unknown } | undefined;
  if (!Array.isArray(file?.services)) throw new ProbeFailure('the RDAP bootstrap file is not valid');
  const servers = new Map<string, string[]>();
  for (const service of file.services as unknown[]) {
    if (!Array.isArray(service) || !Array.isArray(service[0]) || !Array.isArray(service[1])) continue;
    // HTTPS first: RFC 9224 asks clients to prefer it when both are listed.
    const urls = (service[1] as unknown[]).filter((entry): entry is string => typeof entry === 'string');
    urls.sort((a, b) => Number(b.startsWith('https:')) - Number(a.startsWith('https:')));
    for (const suffix of service[0] as unknown[]) if (typeof suffix === 'string') servers.set(suffix.toLowerCase(), urls);
  }
  return servers;
}
