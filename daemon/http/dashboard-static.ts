import { existsSync, type Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Middleware } from 'koa';

/**
 * The dashboard's policy: only this origin's own scripts, styles and API. No inline code at all
 * (the build emits none), images also from data: URLs (the 2FA QR code), no framing, no plugins.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/** Vite names what it emits under assets/ by content hash, so those files never change. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>svc: dashboard not built</title></head>
<body><main><h1>The dashboard is not built</h1>
<p>This daemon serves the API under <code>/api/v1</code>, but found no built dashboard. Run <code>npm run build</code> and reload.</p></main></body></html>
`;

/**
 * The built dashboard, found from this file's location both when running the compiled daemon
 * (dist/daemon/http -> dist/dashboard) and the TypeScript sources (daemon/http -> dist/dashboard):
 * the package root is the nearest folder up with a package.json.
 */
export function defaultDashboardDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return join(dir, 'dist', 'dashboard');
    const parent = dirname(dir);
    if (parent === dir) return resolve('dist', 'dashboard');
    dir = parent;
  }
}

async function fileStat(path: string): Promise<Stats | undefined> {
  try {
    const stats = await stat(path);
    return stats.isFile() ? stats : undefined;
  } catch {
    return undefined;
  }
}

/** The path below `root` that a URL path names, or undefined when it would leave it. */
function resolveInside(root: string, urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  const full = resolve(root, `.${decoded}`);
  return full.startsWith(root + sep) ? full : undefined;
}

/**
 * Serves the single-page dashboard for every path outside the API: files that exist are sent as
 * they are, and any other path gets index.html, so deep links (/orgs/x/checks, /d/auth/complete)
 * work on reload. Mounted after the API router; `/api/...` is never answered here.
 */
export function dashboardStatic(options: { dir?: string } = {}): Middleware {
  const root = resolve(options.dir ?? defaultDashboardDir());
  return async (ctx, next) => {
    if (ctx.path === '/api' || ctx.path.startsWith('/api/')) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();

    ctx.set('Content-Security-Policy', DASHBOARD_CSP);
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set('Cross-Origin-Opener-Policy', 'same-origin');

    const requested = ctx.path === '/' ? undefined : resolveInside(root, ctx.path);
    const requestedStats = requested ? await fileStat(requested) : undefined;
    if (requested && requestedStats && !requested.endsWith(`${sep}index.html`)) {
      const isAsset = requested.startsWith(join(root, 'assets') + sep);
      ctx.set('Cache-Control', isAsset ? IMMUTABLE : 'no-cache');
      await sendFile(ctx, requested, requestedStats);
      return;
    }
    // A missing hashed asset is an old page asking for a file a newer build replaced: answering
    // it with HTML would only make the browser report a script of the wrong type.
    if (ctx.path.startsWith('/assets/')) {
      ctx.status = 404;
      ctx.set('Cache-Control', 'no-store');
      ctx.type = 'text/plain';
      ctx.body = 'Not found';
      return;
    }

    const index = join(root, 'index.html');
    const indexStats = await fileStat(index);
    ctx.set('Cache-Control', 'no-cache');
    if (!indexStats) {
      ctx.status = 503;
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = NOT_BUILT_PAGE;
      return;
    }
    await sendFile(ctx, index, indexStats);
  };
}

async function sendFile(ctx: Parameters<Middleware>[0], path: string, stats: Stats): Promise<void> {
  ctx.status = 200;
  ctx.type = CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
  ctx.lastModified = stats.mtime;
  ctx.etag = `W/"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`;
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  // Koa leaves the body out of HEAD answers itself, keeping the length.
  ctx.body = await readFile(path);
}
