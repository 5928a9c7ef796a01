import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// The architecture's rules (.dependency-cruiser.cjs) run on the project as part of the tests,
// and on a small tree that breaks each of them, to show they can fail.

const ROOT = resolve(import.meta.dirname, '../..');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
const CRUISER = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const SOURCES = ['contract', 'checks', 'cli', 'daemon', 'importers', 'probes', 'dashboard/src', 'bench'];

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

/** Runs dependency-cruiser with the project's rules in `cwd` and returns the violations it found. */
function cruise(cwd: string, paths: string[]): Violation[] {
  const run = spawnSync(process.execPath, [CRUISER, '--config', CONFIG, '--output-type', 'json', ...paths], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (!run.stdout) throw new Error(`dependency-cruiser gave no answer: ${run.stderr}`);
  return (JSON.parse(run.stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

describe('architecture rules', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'svc-rules-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  // Cruising the whole tree takes seconds alone and much longer on a busy machine.
  it('hold for the project', { timeout: 180_000 }, () => {
    expect(cruise(ROOT, SOURCES)).toEqual([]);
  });

  it('fail on a tree that breaks each of them', () => {
    const files: Record<string, string> = {
      'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', jsx: 'react-jsx' } }),
      'daemon/errors.ts': 'export const notFound = 1;\n',
      'contract/index.ts': "import { notFound } from '../daemon/errors.js';\nexport const x = notFound;\n",
      'contract/version.ts': "export const VERSION = '1';\n",
      'importers/convert.ts': "import { notFound } from '../daemon/errors.js';\nexport const y = notFound;\n",
      'importers/shared/token-api.ts': "import https from 'node:https';\nexport const ok = https;\n",
      'importers/sneaky-fetch.ts': "import https from 'node:https';\nexport const no = https;\n",
      'probes/http.ts': "import { notFound } from '../daemon/errors.js';\nexport const z = notFound;\n",
      'probes/tcp.ts': "import { y } from '../importers/convert.js';\nexport const t = y;\n",
      'checks/catalog.ts': "import { y } from '../importers/convert.js';\nimport net from 'node:net';\nexport const c = [y, net];\n",
      'cli/whoami.ts': "import { notFound } from '../daemon/errors.js';\nexport const w = notFound;\n",
      'daemon/orgs/eval-worker.ts': "import { Worker } from 'node:worker_threads';\nexport const e = Worker;\n",
      'daemon/workers/pool.ts': "import { Worker } from 'node:worker_threads';\nexport const p = Worker;\n",
      'dashboard/src/page.ts':
        "import { notFound } from '../../daemon/errors.js';\nimport type { x } from '../../contract/index.js';\nimport { VERSION } from '../../contract/version.js';\nexport const v: typeof x = notFound + Number(VERSION);\n",
      'dashboard/src/typed.ts': "import type { notFound } from '../../daemon/errors.js';\nexport const t: typeof notFound = 1;\n",
      // A runtime cycle breaks the rule; a cycle through a type-only import does not.
      'probes/ping.ts': "import { pong } from './pong.js';\nexport const ping = () => pong;\n",
      'probes/pong.ts': "import { ping } from './ping.js';\nexport const pong = () => ping;\n",
      'checks/field.ts': "import type { Kind } from './kind.js';\nexport interface Field { kind: Kind }\nexport const FIELD = 1;\n",
      'checks/kind.ts': "import { FIELD } from './field.js';\nexport type Kind = 'text';\nexport const KIND = FIELD;\n",
      // Inside the daemon: the database layer stands on nothing else, types included.
      'daemon/db/connect.ts':
        "import { notFound } from '../errors.js';\nimport type { Deps } from '../deps.js';\nexport const open = (deps: Deps) => [deps, notFound];\n",
      'daemon/deps.ts': 'export interface Deps { name: string }\n',
      // Route tables are imported by route files, the MCP tools and app.ts, which mounts them.
      'daemon/routes/health.ts': "import { open } from '../db/connect.js';\nexport const HEALTH = [open];\n",
      'daemon/routes/index.ts': "import { HEALTH } from './health.js';\nexport const ROUTES = [...HEALTH];\n",
      'daemon/mcp/tools.ts': "import { HEALTH } from '../routes/health.js';\nexport const TOOLS = HEALTH;\n",
      'daemon/app.ts': "import { ROUTES } from './routes/index.js';\nexport const app = ROUTES;\n",
      'daemon/runner/engine.ts': "import { HEALTH } from '../routes/health.js';\nexport const engine = HEALTH;\n",
      'daemon/http/mount.ts': "import { ROUTES } from '../routes/index.js';\nexport const mount = ROUTES;\n",
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(scratch, path)), { recursive: true });
      writeFileSync(join(scratch, path), text);
    }
    const found = cruise(scratch, ['contract', 'checks', 'cli', 'daemon', 'importers', 'probes', 'dashboard/src'])
      .map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`)
      .sort();
    expect(found).toEqual([
      'checks-are-the-domain-model: checks/catalog.ts -> importers/convert.ts',
      'checks-are-the-domain-model: checks/catalog.ts -> net',
      'cli-uses-no-daemon-internals: cli/whoami.ts -> daemon/errors.ts',
      'contract-is-the-ground-floor: contract/index.ts -> daemon/errors.ts',
      'daemon-db-is-the-floor: daemon/db/connect.ts -> daemon/deps.ts',
      'daemon-db-is-the-floor: daemon/db/connect.ts -> daemon/errors.ts',
      'daemon-http-does-not-know-the-routes: daemon/http/mount.ts -> daemon/routes/index.ts',
      'daemon-routes-are-the-top: daemon/http/mount.ts -> daemon/routes/index.ts',
      'daemon-routes-are-the-top: daemon/runner/engine.ts -> daemon/routes/health.ts',
      'dashboard-does-not-bundle-node: dashboard/src/page.ts -> contract/version.ts',
      'dashboard-imports-only-types-from-outside: dashboard/src/page.ts -> daemon/errors.ts',
      'importers-do-not-touch-the-network: importers/sneaky-fetch.ts -> https',
      'importers-stay-pure: importers/convert.ts -> daemon/errors.ts',
      'no-circular: probes/ping.ts -> probes/pong.ts',
      'probes-stand-alone: probes/http.ts -> daemon/errors.ts',
      'probes-stand-alone: probes/tcp.ts -> importers/convert.ts',
      'worker-threads-through-one-helper: daemon/orgs/eval-worker.ts -> worker_threads',
    ]);
  });
});
