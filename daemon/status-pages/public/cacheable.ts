import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { Context } from 'koa';

/** Public answers may be kept by browsers and shared caches for half a minute. */
export const PUBLIC_CACHE_CONTROL = 'public, max-age=30';

const gzipAsync = promisify(gzip);
/** Below this a compressed answer saves too little to be worth it. */
const GZIP_MIN_BYTES = 1024;
const GZIP_CACHE_ENTRIES = 256;

/** Compressed bodies by their ETag: everyone is sent the same page, so it is compressed once (held by AppDeps.caches). */
export type GzipCache = Map<string, Buffer>;
export const createGzipCache = (): GzipCache => new Map();

async function gzipOnce(gzipped: GzipCache, tag: string, body: string): Promise<Buffer> {
  const known = gzipped.get(tag);
  if (known) return known;
  // On the thread pool, off the event loop.
  const compressed = await gzipAsync(body);
  gzipped.set(tag, compressed);
  if (gzipped.size > GZIP_CACHE_ENTRIES) gzipped.delete(gzipped.keys().next().value!);
  return compressed;
}

/**
 * Answers `body` as a cacheable public resource: an ETag from the hash of the body, 304 with no
 * body when the client's If-None-Match already names it, and gzip for clients that accept it (a
 * 50-check page is about 250 KiB of repetitive HTML, and some 15 KiB compressed).
 */
export async function sendCacheable(ctx: Context, gzipped: GzipCache, type: string, body: string): Promise<void> {
  // A fingerprint, not a security property: SHA-1 is the fastest hash Node offers on a 250 KiB page.
  const hash = createHash('sha1').update(body).digest('base64url');
  const compress = Buffer.byteLength(body) >= GZIP_MIN_BYTES && ctx.acceptsEncodings('gzip', 'identity') === 'gzip';
  // Each encoding is its own representation, with its own tag.
  const tag = compress ? `${hash}-gz` : hash;
  ctx.set('Cache-Control', PUBLIC_CACHE_CONTROL);
  ctx.vary('Accept-Encoding');
  ctx.type = type;
  ctx.etag = tag;
  ctx.status = 200;
  if (ctx.fresh) {
    ctx.status = 304;
    // An answered body (null, not undefined), so the API's mounting leaves the 304 as it is.
    ctx.body = null;
    return;
  }
  if (compress) {
    ctx.set('Content-Encoding', 'gzip');
    ctx.body = await gzipOnce(gzipped, tag, body);
  } else {
    ctx.body = body;
  }
}
