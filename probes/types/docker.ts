import { Agent, request, type Dispatcher } from 'undici';
import { networkFailure } from '../connection-errors.js';
import { RunDispatcher } from '../http-dispatcher.js';
import { defineProbe, ProbeFailure } from '../probe.js';
import { parseHostPort } from '../target.js';

/** The parts of the Engine API's container inspection the probe reads. */
interface ContainerState {
  State?: { Status?: string; Health?: { Status?: string }; ExitCode?: number };
}

/** Where the Engine API answers: a Unix socket, or an http(s) base URL. */
type Engine = { socketPath: string } | { baseUrl: URL };

function engineOf(dockerHost: string): Engine {
  if (dockerHost.startsWith('unix://')) return { socketPath: dockerHost.slice('unix://'.length) };
  if (dockerHost.startsWith('tcp://')) {
    const { host, port } = parseHostPort(dockerHost.slice('tcp://'.length).replace(/\/$/, ''), 2375);
    return { baseUrl: new URL(`http://${host.includes(':') ? `[${host}]` : host}:${port}/`) };
  }
  return { baseUrl: new URL(dockerHost.endsWith('/') ? dockerHost : `${dockerHost}/`) };
}

/**
 * Docker: inspects the container through the Engine API (`GET /containers/{id}/json`) with
 * undici, over the Unix socket or TCP. Up while it runs, and is healthy when it has a health
 * check. TCP engines go through the egress policy; a Unix socket is this host's own engine,
 * refused where private addresses are (a tenant must not read the daemon host's containers).
 */
export const dockerProbe = defineProbe({
  type: 'docker',
  async run(check, context) {
    const engine = engineOf(check.config.dockerHost);
    let dispatcher: Dispatcher;
    let url: URL;
    const path = `containers/${encodeURIComponent(check.target)}/json`;
    if ('socketPath' in engine) {
      if (context.egress.options.denyPrivate) throw new ProbeFailure('the egress policy refuses local Docker sockets');
      dispatcher = new Agent({ connect: { socketPath: engine.socketPath } });
      url = new URL(`http://docker/${path}`);
    } else {
      dispatcher = new RunDispatcher(context.egress, false);
      url = new URL(path, engine.baseUrl);
    }
    try {
      const response = await request(url, { dispatcher, signal: context.signal, headers: { accept: 'application/json' } });
      if (response.statusCode === 404) {
        await response.body.dump();
        throw new ProbeFailure(`no container named ${check.target}`);
      }
      if (response.statusCode !== 200) {
        const body = (await response.body.json().catch(() => undefined)) as { message?: unknown } | undefined;
        const detail = typeof body?.message === 'string' ? `: ${body.message.slice(0, 100)}` : '';
        throw new ProbeFailure(`the Docker engine answered HTTP ${response.statusCode}${detail}`);
      }
      const { State: state } = ((await response.body.json().catch(() => ({}))) ?? {}) as ContainerState;
      const status = state?.Status;
      if (!status) throw new ProbeFailure('not a Docker engine answer: no container state');
      // `none`: the Engine API's word for a container without a health check, as when Health is absent.
      const health = state.Health?.Status === 'none' ? undefined : state.Health?.Status;
      if (status !== 'running') {
        const exit = status === 'exited' && typeof state.ExitCode === 'number' ? ` (exit code ${state.ExitCode})` : '';
        throw new ProbeFailure(`container ${check.target} is ${status}${exit}`);
      }
      if (health && health !== 'healthy') throw new ProbeFailure(`container ${check.target} is running but ${health}`);
      return { message: health ? 'running (healthy)' : 'running' };
    } catch (error) {
      if (context.signal.aborted) throw context.signal.reason;
      if ('socketPath' in engine) throw socketFailure(error, engine.socketPath) ?? error;
      const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
      throw networkFailure(error, url.hostname.replace(/^\[(.*)\]$/, '$1'), port) ?? error;
    } finally {
      void dispatcher.destroy().catch(() => {});
    }
  },
});

/** A missing or refused Unix socket, by its code. */
function socketFailure(error: unknown, socketPath: string): ProbeFailure | undefined {
  for (let current = error; current && typeof current === 'object'; current = (current as { cause?: unknown }).cause) {
    const code = (current as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return new ProbeFailure(`no Docker socket at ${socketPath}`);
    if (code === 'ECONNREFUSED') return new ProbeFailure(`connect ECONNREFUSED ${socketPath}`);
    if (code === 'EACCES') return new ProbeFailure(`no permission to use ${socketPath}`);
  }
  return undefined;
}
