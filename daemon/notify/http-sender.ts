import { request, type Dispatcher } from 'undici';
import { sharedDispatcher } from '../../probes/http-dispatcher.js';
import type { EgressPolicy } from '../../probes/egress.js';
import { DeliveryError, isPermanentStatus } from './delivery-error.js';

/** One outbound request of a deliverer. */
export interface OutboundRequest {
  method?: 'POST' | 'PUT';
  headers?: Record<string, string>;
  /** A JSON value (sent as application/json) or ready text. */
  json?: unknown;
  text?: string;
}

/** What the service answered. */
export interface OutboundResponse {
  status: number;
  /** The answer's text, up to 64 KiB; for deliverers that must read it (Slack and Telegram answer 200 with `ok: false`). */
  body: string;
}

/** Sends deliverers' requests under the egress policy, with a deadline and without following redirects. */
export interface HttpSender {
  send(url: string, outbound: OutboundRequest): Promise<OutboundResponse>;
  close(): Promise<void>;
}

const MAX_BODY = 64 * 1024;

async function readCapped(body: Dispatcher.ResponseData['body']): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    if (size < MAX_BODY) chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return Buffer.concat(chunks).toString('utf8').slice(0, MAX_BODY);
}

/**
 * An HttpSender over one pooled undici Agent whose connections resolve through the egress
 * policy (so link-local, metadata and, when denied, private addresses are refused at connect).
 * Redirects are answered as failures, never followed: a webhook that moves must be changed by
 * a person. Errors name the host only, since paths carry tokens.
 */
export function createHttpSender(egress: EgressPolicy, timeoutMs: number): HttpSender {
  const agent = sharedDispatcher(egress);
  return {
    async send(url, outbound) {
      const host = new URL(url).host;
      const headers: Record<string, string> = { 'user-agent': 'svc-notify', ...outbound.headers };
      let body: string | undefined = outbound.text;
      if (outbound.json !== undefined) {
        body = JSON.stringify(outbound.json);
        headers['content-type'] = 'application/json';
      }
      let response: Dispatcher.ResponseData;
      try {
        response = await request(url, { method: outbound.method ?? 'POST', headers, body, dispatcher: agent, signal: AbortSignal.timeout(timeoutMs) });
      } catch (error) {
        const { name, code, message } = error as NodeJS.ErrnoException;
        if (name === 'TimeoutError' || name === 'AbortError') throw new DeliveryError(`${host} did not answer within ${timeoutMs / 1000} s`);
        if (code === 'EGRESS_REFUSED' || /egress policy/.test(message)) throw new DeliveryError(`${host}: ${message}`, null, true);
        throw new DeliveryError(`cannot reach ${host}: ${code ?? name}`);
      }
      const text = await readCapped(response.body).catch(() => '');
      if (response.statusCode >= 300 && response.statusCode < 400) {
        throw new DeliveryError(`${host} answered HTTP ${response.statusCode} (a redirect, not followed)`, response.statusCode, true);
      }
      if (response.statusCode >= 400) {
        throw new DeliveryError(`${host} answered HTTP ${response.statusCode}`, response.statusCode, isPermanentStatus(response.statusCode));
      }
      return { status: response.statusCode, body: text };
    },
    close: () => agent.close(),
  };
}
