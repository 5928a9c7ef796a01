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

/** The compressed body of `tag`, from the cache, else written by `body` and compressed. */
async function gzipOnce(gzipped: GzipCache, tag: string, body: () => string): Promise<Buffer> {
  const known = gzipped.get(tag);
  if (known) return known;
  // On the thread pool, off the event loop.
  const compressed = await gzipAsync(body());
  gzipped.set(tag, compressed);
  if (gzipped.size > GZIP_CACHE_ENTRIES) gzipped.delete(gzipped.keys().next().value!);
  return compressed;
}

/** A fingerprint, not a security property: SHA-1 is the fastest hash Node offers on a 250 KiB page. */
export const fingerprintOf = (...parts: string[]): string => {
  const hash = createHash('sha1');
  for (const part of parts) hash.update(part);
  return hash.digest('base64url');
};

const acceptsGzip = (ctx: Context) => ctx.acceptsEncodings('gzip', 'identity') === 'gzip';

/**
 * Answers `body` as a cacheable public resource: an ETag from the hash of the body, 304 with no
 * body when the client's If-None-Match already names it, and gzip for clients that accept it.
 */
export async function sendCacheable(ctx: Context, gzipped: GzipCache, type: string, body: string): Promise<void> {
  const compress = Buffer.byteLength(body) >= GZIP_MIN_BYTES && acceptsGzip(ctx);
  await answer(ctx, gzipped, type, fingerprintOf(body), compress, () => body);
}

/**
 * Answers a page rendered from what it shows, tagged by `fingerprint` (of that and of the
 * renderer) instead of by its bytes: a revalidation is answered 304, and a compressed body from
 * the cache, without rendering the page. Such a page is always larger than the smallest body
 * worth compressing (a 50-check status page is about 250 KiB of repetitive HTML, and some 7 KiB
 * compressed).
 */
export async function sendRendered(ctx: Context, gzipped: GzipCache, type: string, fingerprint: string, render: () => string): Promise<void> {
  await answer(ctx, gzipped, type, fingerprint, acceptsGzip(ctx), render);
}

async function answer(ctx: Context, gzipped: GzipCache, type: string, fingerprint: string, compress: boolean, body: () => string): Promise<void> {
  // Each encoding is its own representation, with its own tag.
  const tag = compress ? `${fingerprint}-gz` : fingerprint;
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
    ctx.body = body();
  }
}
