import { createHash } from 'node:crypto';
import type { Dispatcher } from 'undici';

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/** What the dispatcher saw of a WebSocket handshake, for a precise failure message. */
export interface HandshakeObservation {
  /** The connection error (`connect ECONNREFUSED …`, an egress refusal). */
  error?: Error;
  /** The status of a response that was not an upgrade. */
  status?: number;
  /** The server's Sec-WebSocket-Accept was missing or wrong (and replaced when tolerated). */
  acceptWrong?: boolean;
}

function requestHeader(headers: unknown, name: string): string | undefined {
  if (Array.isArray(headers)) {
    for (let i = 0; i < headers.length; i += 2) if (String(headers[i]).toLowerCase() === name) return String(headers[i + 1]);
    return undefined;
  }
  if (headers && typeof headers === 'object') {
    for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name) return String(value);
  }
  return undefined;
}

/**
 * An undici interceptor that records the handshake's connection error or non-101 status (undici's
 * WebSocket reports both only as "Received network error or non-101 status code"), and, with
 * `tolerateAccept`, replaces a wrong Sec-WebSocket-Accept with the right one so that the
 * connection proceeds with servers behind proxies that rewrite it.
 */
export function observeHandshake(observed: HandshakeObservation, tolerateAccept: boolean): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (options, handler) => {
    const key = requestHeader(options.headers, 'sec-websocket-key');
    const expected = key
      ? createHash('sha1')
          .update(key + GUID)
          .digest('base64')
      : undefined;
    const fixRaw = (raw: Buffer[]): Buffer[] => {
      if (!expected) return raw;
      const at = raw.findIndex((value, index) => index % 2 === 0 && value.toString('latin1').toLowerCase() === 'sec-websocket-accept');
      if (at !== -1 && raw[at + 1].toString('latin1').trim() === expected) return raw;
      observed.acceptWrong = true;
      if (!tolerateAccept) return raw;
      const fixed = [...raw];
      if (at === -1) fixed.push(Buffer.from('sec-websocket-accept'), Buffer.from(expected));
      else fixed[at + 1] = Buffer.from(expected);
      return fixed;
    };
    const fixObject = (headers: Record<string, string | string[] | undefined>) => {
      if (!expected || headers['sec-websocket-accept'] === expected) return headers;
      observed.acceptWrong = true;
      return tolerateAccept ? { ...headers, 'sec-websocket-accept': expected } : headers;
    };
    const wrapped = new Proxy(handler, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        switch (property) {
          case 'onError':
            return (error: Error) => {
              observed.error ??= error;
              return value.call(target, error);
            };
          case 'onResponseError':
            return (controller: unknown, error: Error) => {
              observed.error ??= error;
              return value.call(target, controller, error);
            };
          case 'onHeaders':
            return (status: number, ...rest: unknown[]) => {
              observed.status = status;
              return value.call(target, status, ...rest);
            };
          case 'onResponseStart':
            return (controller: unknown, status: number, ...rest: unknown[]) => {
              observed.status = status;
              return value.call(target, controller, status, ...rest);
            };
          case 'onUpgrade':
            return (status: number, raw: Buffer[], socket: unknown) => value.call(target, status, fixRaw(raw), socket);
          case 'onRequestUpgrade':
            return (controller: unknown, status: number, headers: Record<string, string>, socket: unknown) =>
              value.call(target, controller, status, fixObject(headers), socket);
          default:
            return value.bind(target);
        }
      },
    });
    return dispatch(options, wrapped);
  };
}
