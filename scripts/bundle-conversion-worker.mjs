#!/usr/bin/env node
// Bundles the conversion worker (daemon/import/conversion-worker.ts) from its compiled module, as
// the last step of scripts/build.mjs: a fresh worker then starts an import without resolving,
// reading and linking each of the hundreds of modules it is made of (docs/import.md). Each
// converter stays a chunk of its own, loaded when its source is imported. zod and js-yaml are
// bundled in; every other package (sql.js loads its WebAssembly from beside its module) loads
// from node_modules as before.
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = fileURLToPath(new URL('..', import.meta.url));
const BUNDLED_PACKAGES = new Set(['zod', 'js-yaml']);
const packageOf = (id) => (id.startsWith('@') ? id.split('/').slice(0, 2).join('/') : id.split('/')[0]);

await build({
  input: join(root, 'dist/daemon/import/conversion-worker.js'),
  platform: 'node',
  external: (id) => !id.startsWith('.') && !isAbsolute(id) && !BUNDLED_PACKAGES.has(packageOf(id)),
  output: { dir: join(root, 'dist/bundles/conversion-worker'), format: 'esm', cleanDir: true },
});
