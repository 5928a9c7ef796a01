import { WebSocket, type Dispatcher, type MessageEvent } from 'undici';
import { onAbort } from '../abort.js';
import { RunDispatcher } from '../http-dispatcher.js';
import { defineProbe, ProbeFailure } from '../probe.js';
import { failureMessage } from '../failure-message.js';
import { requestHeaders } from '../request-headers.js';
import { keywordFailure } from '../text-match.js';
import { observeHandshake, type HandshakeObservation } from '../websocket-handshake.js';

/** The largest message a run reads, like an HTTP check's body: a larger one fails the run (close 1009). */
export const MAX_MESSAGE_BYTES = 1_048_576;

/**
 * The run's dispatcher with undici's WebSocket message limit at {@link MAX_MESSAGE_BYTES}
 * (undici reads it from the dispatcher; its own default is 128 MiB), compressed or not.
 */
function withMessageLimit(dispatcher: Dispatcher): Dispatcher {
  const webSocketOptions = { maxFragments: 1024, maxPayloadSize: MAX_MESSAGE_BYTES };
  return new Proxy(dispatcher, { get: (target, key) => (key === 'webSocketOptions' ? webSocketOptions : Reflect.get(target, key)) });
}

/**
 * The WebSocket probe, on undici's WebSocket (the WHATWG client, already a dependency) over the
 * run's egress-bound dispatcher: opens the connection with the headers and subprotocols, sends
 * the message if any, and looks for the keyword in the first reply.
 */
export const websocketProbe = defineProbe({
  type: 'websocket',
  async run(check, context) {
    const { config } = check;
    const observed: HandshakeObservation = {};
    const agent = new RunDispatcher(context.egress, config.ignoreTlsErrors);
    const socket = new WebSocket(check.target, {
      protocols: config.subprotocols,
      headers: requestHeaders(config.headers),
      dispatcher: withMessageLimit(agent.compose(observeHandshake(observed, config.ignoreSecWebSocketAccept))),
    });
    socket.binaryType = 'arraybuffer';
    const forget = onAbort(context.signal, () => socket.close());
    let opened = false;
    /** Why the connection closed, as precisely as the handshake observation allows. */
    const closeFailure = (code: number, reason: string): ProbeFailure => {
      // undici ends the connection itself (no close frame comes back) when a message is over the limit.
      if (opened && code === 1006)
        return new ProbeFailure('the connection ended without a close frame (1006): the server dropped it, or sent a message over 1 MiB');
      if (opened) return new ProbeFailure(`the server closed the connection (${code}${reason ? ` ${reason}` : ''})`);
      if (observed.error) return new ProbeFailure(failureMessage(observed.error));
      if (observed.status !== undefined && observed.status !== 101) return new ProbeFailure(`expected status 101, got ${observed.status}`);
      if (observed.acceptWrong && !config.ignoreSecWebSocketAccept) {
        return new ProbeFailure('wrong Sec-WebSocket-Accept header (ignoreSecWebSocketAccept tolerates it)');
      }
      return new ProbeFailure(`handshake failed: ${reason || 'connection closed'}`);
    };
    const closedWith = new Promise<number>((resolve) => socket.addEventListener('close', (event) => resolve(event.code)));
    try {
      const open = new Promise<void>((resolve, reject) => {
        socket.addEventListener('open', () => {
          opened = true;
          resolve();
        });
        socket.addEventListener('close', (event) => reject(closeFailure(event.code, event.reason)));
      });
      const firstReply = new Promise<string>((resolve, reject) => {
        socket.addEventListener('message', (event: MessageEvent) => {
          resolve(typeof event.data === 'string' ? event.data : Buffer.from(event.data as ArrayBuffer).toString('utf8'));
        });
        socket.addEventListener('close', (event) => reject(closeFailure(event.code, event.reason)));
      });
      // Awaited below (or not at all, without a keyword): never an unhandled rejection.
      firstReply.catch(() => {});
      await open;
      if (config.message !== undefined) socket.send(config.message);
      const notes = [`connected${socket.protocol ? ` (subprotocol ${socket.protocol})` : ''}`];
      if (observed.acceptWrong) notes.push('wrong Sec-WebSocket-Accept ignored');
      if (config.keyword) {
        const problem = keywordFailure(await firstReply, config.keyword, 'first reply');
        if (problem) throw new ProbeFailure(problem);
        notes.push('reply matched');
      }
      if (config.expectedCloseCodes !== undefined) {
        socket.close(1000);
        const code = await closedWith;
        if (!closeCodeMatches(config.expectedCloseCodes, code)) {
          throw new ProbeFailure(`the connection closed with code ${code}, expected ${config.expectedCloseCodes.join(', ')}`);
        }
        notes.push(`closed with code ${code}`);
      }
      return { message: notes.join('; ') };
    } finally {
      forget();
      socket.close();
      void agent.destroy().catch(() => {});
    }
  },
});

/** Whether a close code is one of the codes or "low-high" ranges listed. */
function closeCodeMatches(accepted: readonly (number | string)[], code: number): boolean {
  return accepted.some((entry) => {
    const [low, high = low] = String(entry).split('-').map(Number);
    return code >= low! && code <= high!;
  });
}
