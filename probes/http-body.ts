import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createUnzip } from 'node:zlib';
import type { Dispatcher } from 'undici';

/**
 * The most of a body kept whole for JSON assertions and for a keyword searched in re-serialised
 * JSON (10 MiB). A keyword in the raw text is searched over the whole body as it streams in.
 */
export const MAX_WHOLE_BODY_BYTES = 10 * 1_048_576;

type Body = Dispatcher.ResponseData['body'];

/**
 * The body as decoded bytes: a `Content-Encoding` of gzip, deflate or br (also several, and
 * also when the request did not ask for it) is undone, as browsers and most HTTP clients do.
 * An unknown encoding leaves the bytes as they came.
 */
export function decodedBody(body: Body, contentEncoding: string | string[] | undefined): AsyncIterable<Buffer> {
  const codings = (Array.isArray(contentEncoding) ? contentEncoding.join(',') : (contentEncoding ?? ''))
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  let stream: Readable = body as unknown as Readable;
  // The last coding applied is the first undone.
  for (const coding of codings.reverse()) {
    if (coding === 'gzip' || coding === 'x-gzip' || coding === 'deflate') stream = stream.pipe(createUnzip());
    else if (coding === 'br') stream = stream.pipe(createBrotliDecompress());
    else break;
  }
  if (stream !== (body as unknown as Readable)) {
    // A broken compressed body ends the read with its error, not an unhandled one.
    const source = body as unknown as Readable;
    source.on('error', (error) => stream.destroy(error));
  }
  return stream as AsyncIterable<Buffer>;
}

/** What reading the whole body found: the text, or that it was larger than `max` bytes. */
export type WholeBody = { text: string; cut: false } | { text: string; cut: true };

/** Reads at most `max` decoded bytes of the body as UTF-8 text; `cut` when there was more. */
export async function readWholeBody(chunks: AsyncIterable<Buffer>, body: Body, max = MAX_WHOLE_BODY_BYTES): Promise<WholeBody> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    parts.push(chunk);
    size += chunk.length;
    if (size > max) {
      body.destroy();
      return { text: Buffer.concat(parts, max).toString('utf8'), cut: true };
    }
  }
  return { text: Buffer.concat(parts, size).toString('utf8'), cut: false };
}

/**
 * Whether `needle` occurs in the streamed text, reading only as far as needed and keeping only
 * the last `needle.length - 1` characters between chunks, so a body of any size is searched in
 * bounded memory. `caseSensitive: false` compares in lower case.
 */
export async function streamContains(chunks: AsyncIterable<Buffer>, body: Body, needle: string, caseSensitive: boolean): Promise<boolean> {
  const wanted = caseSensitive ? needle : needle.toLowerCase();
  const decoder = new StringDecoder('utf8');
  let tail = '';
  const found = (text: string) => {
    const window = tail + (caseSensitive ? text : text.toLowerCase());
    if (window.includes(wanted)) return true;
    tail = window.slice(Math.max(0, window.length - (wanted.length - 1)));
    return false;
  };
  for await (const chunk of chunks) {
    if (found(decoder.write(chunk))) {
      body.destroy();
      return true;
    }
  }
  return found(decoder.end());
}
