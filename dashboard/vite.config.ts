import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The dashboard is built into dist/dashboard, next to the compiled daemon that serves it.
 * `vite` (dev) proxies the API to a daemon on its default address.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  publicDir: false,
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/dashboard', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    // The daemon's Content-Security-Policy allows no inline code or styles, so nothing is inlined.
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:4000' },
    // The API's shapes and constants come from the shared contract next to the dashboard.
    fs: { allow: [fileURLToPath(new URL('.', import.meta.url)), fileURLToPath(new URL('../contract', import.meta.url))] },
  },
});
