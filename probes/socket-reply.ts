import type { Duplex } from 'node:stream';
import { onAbort } from './abort.js';
import { ProbeFailure } from './probe.js';

/** When a reply is complete. */
export interface ReplyOptions {
  /** Ends the reply early once the text so far satisfies it (a keyword found, a final line). */
  complete?: (text: string) => boolean;
  /** After the first bytes, this long without more data ends the reply. */
  quietMs: number;
  /** The most bytes read. */
  maxBytes: number;
  signal: AbortSignal;
}

/**
 * Reads a reply from a connected stream: until `complete` holds, the peer closes, `quietMs`
 * passes without new data after the first bytes, or `maxBytes` arrive. Rejects when the stream
 * fails or closes before sending anything.
 */
export function readReply(stream: Duplex, options: ReplyOptions): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let text = '';
    let bytes = 0;
    let quiet: NodeJS.Timeout | undefined;
    const finish = (error?: Error) => {
      clearTimeout(quiet);
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', finish);
      stream.off('close', onEnd);
      forget();
      if (error) reject(error);
      else resolve(text);
    };
    const onEnd = () => (bytes === 0 ? finish(new ProbeFailure('the connection closed without a reply')) : finish());
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      text += chunk.toString('utf8');
      if (bytes >= options.maxBytes || options.complete?.(text)) return finish();
      clearTimeout(quiet);
      quiet = setTimeout(() => finish(), options.quietMs);
    };
    const forget = onAbort(options.signal, (reason) => finish(reason as Error));
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('close', onEnd);
    stream.once('error', finish);
  });
}
