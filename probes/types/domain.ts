import { request } from 'undici';
import { networkFailure } from '../connection-errors.js';
import { RunDispatcher } from '../http-dispatcher.js';
import { defineProbe, ProbeFailure } from '../probe.js';

const DAY_MS = 86_400_000;
const MAX_RDAP_BYTES = 1024 * 1024;

/** The parts of an RDAP domain answer (RFC 9083) the probe reads. */
interface RdapDomain {
  events?: { eventAction?: string; eventDate?: string }[];
  status?: string[];
}

/**
 * Domain expiry over RDAP (RFC 9082/9083, the registries' successor of WHOIS) with undici:
 * finds the registry's server in the bootstrap file, asks it about the domain and reads the
 * `expiration` event. Down when it is not registered, has expired, or expires within the threshold.
 */
export const domainProbe = defineProbe({
  type: 'domain',
  async run(check, context) {
    const domain = check.target.toLowerCase().replace(/\.$/, '');
    const dispatcher = new RunDispatcher(context.egress, false);
    try {
      const [server] = await context.caches.rdapBootstrap.serversFor(domain, dispatcher, context.signal, context.now());
      if (!server) throw new ProbeFailure(`no RDAP server is known for ${domain}`);
      const url = new URL(`domain/${encodeURIComponent(domain)}`, server.endsWith('/') ? server : `${server}/`);
      const response = await request(url, {
        dispatcher,
        signal: context.signal,
        headers: { accept: 'application/rdap+json, application/json' },
      });
      if (response.statusCode === 404) {
        await response.body.dump();
        throw new ProbeFailure(`${domain} is not registered (the registry does not know it)`);
      }
      if (response.statusCode !== 200) {
        await response.body.dump();
        throw new ProbeFailure(`the registry's RDAP server answered HTTP ${response.statusCode}`);
      }
      if (Number(response.headers['content-length'] ?? 0) > MAX_RDAP_BYTES) {
        await response.body.dump();
        throw new ProbeFailure('the RDAP answer is too large');
      }
      const answer = (await response.body.json().catch(() => undefined)) as RdapDomain | undefined;
      if (!answer || typeof answer !== 'object') throw new ProbeFailure('the RDAP answer is not JSON');
      const expiration = answer.events?.find((event) => event.eventAction === 'expiration')?.eventDate;
      const expires = expiration ? Date.parse(expiration) : NaN;
      if (Number.isNaN(expires)) throw new ProbeFailure(`the registry publishes no expiration date for ${domain}`);
      const date = new Date(expires).toISOString().slice(0, 10);
      const days = Math.floor((expires - context.now()) / DAY_MS);
      if (expires <= context.now()) throw new ProbeFailure(`${domain} expired on ${date}`);
      const threshold = check.config.expiryThresholdDays;
      if (days < threshold) throw new ProbeFailure(`${domain} expires in ${days} days (${date}), within ${threshold}`);
      return { message: `${domain} expires in ${days} days (${date})` };
    } catch (error) {
      if (context.signal.aborted) throw context.signal.reason;
      // Node's connection errors carry the address they failed to reach.
      const socketError = findSocketError(error);
      throw (socketError && networkFailure(error, socketError.address, socketError.port)) ?? error;
    } finally {
      void dispatcher.destroy().catch(() => {});
    }
  },
});

function findSocketError(error: unknown): { address: string; port: number } | undefined {
  for (let current = error; current && typeof current === 'object'; current = (current as { cause?: unknown }).cause) {
    const { address, port } = current as { address?: unknown; port?: unknown };
    if (typeof address === 'string' && typeof port === 'number') return { address, port };
  }
  return undefined;
}
