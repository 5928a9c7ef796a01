import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// No module of the daemon or the probes keeps mutable state: what an app keeps between requests
// and runs lives on AppDeps.caches (daemon/caches.ts, probes/probe-caches.ts), so two apps in one
// process share nothing. This finds the usual shapes of module state: a top-level `let`, and a
// top-level Map, WeakMap or empty Set or array.

const ROOT = resolve(import.meta.dirname, '../..');

/** Module state that is deliberate, each with why it belongs to no app. */
const ALLOWED: Record<string, string> = {
  'daemon/audit/audit-log.ts: lastMsOf': 'the last audit id time per injected clock object, not per module',
  'daemon/db/transaction-reads.ts: readInTransaction': "what one transaction object has read, kept while it lives; a transaction belongs to one app's database",
  'daemon/db/in-transaction.ts: commitHooks':
    "what one transaction object does once it commits, kept while it lives; a transaction belongs to one app's database",
  'daemon/notify/outbox-bell.ts: listeners': "the dispatchers listening on one app's database handle, held weakly by it",
  'daemon/mcp/tool-listing.ts: built': "each tool's JSON Schemas, derived once from the tool's own constant definition",
  'daemon/status-pages/public/status-page-fingerprint.ts: renderer': "the status page renderer's identity, derived once from its constant sample page",
  'probes/http-dispatcher.ts: connectors': 'connectors derived from an egress policy object, which belongs to one app',
  'probes/egress-fetch.ts: dispatchers': 'dispatchers derived from an egress policy object, which belongs to one app',
  'probes/tls-options.ts: trustStores': 'trust stores derived from an egress policy object, which belongs to one app',
  'daemon/db/statement-spans.ts: spanStart': "the current span of SQLite statements of the thread's one event loop, whichever app runs them",
  'daemon/checks/canonical-json.ts: frozenTexts':
    'the canonical text of each deeply frozen object, held weakly by the object, which cannot change: the same for every app',
  'probes/registry.ts: loaded': "which driver modules were imported; Node's module cache is process-wide anyway",
  'daemon/import/conversion-worker.ts: last':
    "a conversion worker's last whole conversion, for the next job of the same bytes: the thread serves one organization of one app",
  // Moving to typed worker files with their state on AppDeps.caches (issue 27, another change).
  'daemon/auth/saml/verify-worker.ts: worker': 'the SAML verification worker',
  'daemon/auth/saml/verify-worker.ts: pending': 'the SAML verification worker',
  'daemon/auth/saml/verify-worker.ts: nextId': 'the SAML verification worker',
  'daemon/orgs/pattern-matcher.ts: history': 'the e-mail pattern worker',
  'daemon/orgs/pattern-matcher.ts: slot': 'the e-mail pattern worker',
  'daemon/orgs/pattern-matcher.ts: running': 'the e-mail pattern worker',
  'daemon/orgs/pattern-matcher.ts: queue': 'the e-mail pattern worker',
  'daemon/orgs/pattern-matcher.ts: nextId': 'the e-mail pattern worker',
};

const MODULE_STATE = [
  /^(?:export )?let (\w+)/,
  /^(?:export )?const (\w+)(?::[^=]*)? = new (?:Map|WeakMap|WeakSet)\b/,
  /^(?:export )?const (\w+)(?::[^=]*)? = (?:new Set\(\)|\[\]);/,
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** `file: name` of every top-level declaration in `text` that holds module state. */
export function moduleState(file: string, text: string): string[] {
  return text.split('\n').flatMap((line) => {
    for (const pattern of MODULE_STATE) {
      const name = pattern.exec(line)?.[1];
      if (name) return [`${file}: ${name}`];
    }
    return [];
  });
}

describe('module state', () => {
  it('is kept by no module of the daemon or the probes, apart from the listed ones', () => {
    const found = ['daemon', 'probes'].flatMap((dir) =>
      sources(join(ROOT, dir)).flatMap((path) => moduleState(relative(ROOT, path), readFileSync(path, 'utf8'))),
    );
    expect(found.filter((entry) => !(entry in ALLOWED))).toEqual([]);
  });

  it('is found in each of its shapes', () => {
    const text = [
      'let cached: string | undefined;',
      'export let url = "x";',
      'const seen = new Map<string, number>();',
      'const byDeps: WeakMap<object, number> = new WeakMap();',
      'const queue: string[] = [];',
      'const names = new Set();',
      'const CODES = new Set([301, 302]);',
      'function f() {',
      '  let local = 1;',
      '  const inner = new Map();',
      '}',
    ].join('\n');
    expect(moduleState('x.ts', text)).toEqual(['x.ts: cached', 'x.ts: url', 'x.ts: seen', 'x.ts: byDeps', 'x.ts: queue', 'x.ts: names']);
  });
});
