import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// Every outbound connection the daemon makes for a member goes through the egress policy
// (probes/egress.ts). This walks the sources for the ways to open one: the global fetch, Node's
// HTTP, socket and datagram clients, undici, and the protocol drivers. A file that uses one must
// be the egress module or be listed below with the reason it is safe; a new use elsewhere fails.

const ROOT = resolve(import.meta.dirname, '../..');
const SCANNED = ['daemon', 'probes', 'importers', 'checks', 'contract'];

/** The egress module itself: the policy, and the HTTP dispatcher, fetch and SOCKS proxy built on it. */
const EGRESS_MODULE = [
  'probes/egress.ts',
  'probes/http-dispatcher.ts',
  'probes/egress-fetch.ts',
  'probes/egress-socks-proxy.ts',
  'probes/browser-egress-proxy.ts',
];

const RESOLVED = 'connects only to the address resolveTarget (the egress policy) allowed';
const DISPATCHER = "requests through RunDispatcher (the egress policy's connector)";

/** Files that open connections by themselves, and why that is safe. */
const ALLOWED: Record<string, string> = {
  'daemon/db/connect.ts': 'the database driver, to the operator-configured SVC_DB_URL',
  'daemon/mail/smtp-transport.ts': 'SMTP to the operator-configured SVC_SMTP_URL (members choose recipients, not the server)',
  'daemon/auth/ldap/directory.ts': 'LDAP to the operator-configured directory',
  'daemon/notify/http-sender.ts': DISPATCHER,
  'importers/shared/token-api.ts': "the token sources' APIs with the caller's token or key (operator-configured host, run off the event loop)",
  'probes/connect.ts': RESOLVED,
  'probes/rdap-bootstrap.ts': DISPATCHER,
  'probes/types/http.ts': DISPATCHER,
  'probes/types/domain.ts': DISPATCHER,
  'probes/types/rabbitmq.ts': 'undici Agent whose connect resolves through the egress policy',
  'probes/types/websocket.ts': 'undici WebSocket over RunDispatcher (the egress policy)',
  'probes/types/docker.ts': 'the Docker engine on its Unix socket, or a TCP address resolveTarget allowed',
  'probes/types/udp.ts': RESOLVED,
  'probes/types/ntp.ts': RESOLVED,
  'probes/types/kafka.ts': 'broker addresses, announced ones included, judged by the egress policy before each connect',
  'probes/types/mysql.ts': RESOLVED,
  'probes/types/mssql.ts': RESOLVED,
  'probes/types/postgres.ts': RESOLVED,
  'probes/types/oracle.ts': RESOLVED,
  'probes/types/redis.ts': RESOLVED,
  'probes/types/mqtt.ts': RESOLVED,
  'probes/types/ssh.ts': RESOLVED,
  'probes/types/snmp.ts': RESOLVED,
  'probes/types/mongodb.ts': "every connection through the run's SOCKS proxy (probes/egress-socks-proxy.ts), which applies the egress policy",
  'probes/types/grpc.ts': RESOLVED,
  'probes/types/browser.ts': 'Chromium, under the browser check rules (the egress policy on every request)',
  'probes/types/dns.ts': 'asks the resolver the egress policy allowed',
};

/** Packages that open connections. */
const NETWORK_PACKAGES =
  /^(undici|pg|mysql2|mongodb|tedious|oracledb|kafkajs|mqtt|redis|ioredis|ssh2|net-snmp|nodemailer|ldapts|playwright-core|playwright|ws|axios|node-fetch|got|amqplib|socks)(\/|$)/;
/** Names of Node's modules that open connections, per module. */
const NODE_CLIENTS: Record<string, RegExp> = {
  net: /\b(connect|createConnection|Socket)\b/,
  tls: /\b(connect)\b/,
  http: /\b(request|get|Agent|globalAgent)\b/,
  https: /\b(request|get|Agent|globalAgent)\b/,
  http2: /\b(connect)\b/,
  dgram: /\b(createSocket)\b/,
  dns: /\b(Resolver|resolve\w*|lookup)\b/,
};

/** What in one source file opens a connection: `name` for each way found. */
export function outboundUses(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  const found = new Set<string>();
  if (/(?<![\w.$'"`])fetch\s*\(/.test(code) || /\bglobalThis\.fetch\b/.test(code) || /(\?\?|\|\||=|\(|,)\s*fetch\s*[,)};]/.test(code))
    found.add('global fetch');
  for (const match of code.matchAll(/import\s+(type\s+)?([^'";]*?)\s*from\s*'([^']+)'/g)) {
    const [, typeOnly, names, from] = match;
    if (typeOnly) continue;
    const valueNames = names.replace(/\btype\s+\w+(\s+as\s+\w+)?\s*,?/g, '');
    const node = /^(node:)?([a-z0-9]+)(\/promises)?$/.exec(from);
    if (node && NODE_CLIENTS[node[2]] && (NODE_CLIENTS[node[2]].test(valueNames) || /^\s*\w+\s*$|\*\s+as/.test(valueNames))) found.add(from);
    if (NETWORK_PACKAGES.test(from) && /\w/.test(valueNames.replace(/[{},\s]/g, ''))) found.add(from);
  }
  for (const match of code.matchAll(/\bimport\(\s*(['"`])([^'"`]+)\1\s*\)/g)) if (NETWORK_PACKAGES.test(match[2])) found.add(match[2]);
  // require('pg'), and a require made with createRequire(import.meta.url)('pg').
  for (const match of code.matchAll(/(?:\brequire|\))\(\s*(['"`])([^'"`]+)\1\s*\)/g)) if (NETWORK_PACKAGES.test(match[2])) found.add(match[2]);
  if (/\brequire\(\s*['"`](node:)?(net|tls|http|https|http2|dgram)['"`]\s*\)/.test(code)) found.add('require of a Node network module');
  return [...found].sort();
}

function sourceFiles(root: string, folders: string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|mts|js|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(relative(root, path));
    }
  };
  for (const folder of folders) walk(join(root, folder));
  return out.sort();
}

/** Files that open connections without being the egress module or on the list. */
function bypasses(root: string): string[] {
  return sourceFiles(root, SCANNED)
    .filter((file) => !EGRESS_MODULE.includes(file) && !(file in ALLOWED))
    .flatMap((file) => outboundUses(readFileSync(join(root, file), 'utf8')).map((use) => `${file}: ${use}`));
}

describe('outbound calls', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'svc-outbound-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('go through the egress module, or through a file listed with its reason', () => {
    expect(bypasses(ROOT)).toEqual([]);
  });

  it('the list names only files that exist and still open connections', () => {
    const stale = Object.keys(ALLOWED).filter((file) => {
      try {
        return outboundUses(readFileSync(join(ROOT, file), 'utf8')).length === 0;
      } catch {
        return true;
      }
    });
    expect(stale).toEqual([]);
  });

  it('fail on a tree that bypasses the egress module in each way', () => {
    const files: Record<string, string> = {
      'daemon/auth/saml/idp-metadata.ts': "export const f = (url: string) => fetch(url, { redirect: 'error' });\n",
      'daemon/notify/raw.ts': "import { request } from 'node:https';\nexport const r = request;\n",
      'daemon/channel.ts': "import { request as undiciRequest } from 'undici';\nexport const u = undiciRequest;\n",
      'daemon/deps-default.ts': 'export const deps = { fetch: globalThis.fetch };\n',
      'daemon/server-default.ts': 'const options: { fetch?: typeof fetch } = {};\nexport const f = options.fetch ?? fetch;\n',
      'probes/types/raw-socket.ts': "import { connect } from 'node:net';\nexport const c = connect;\n",
      'probes/types/lazy-driver.ts': "export const load = () => import('mongodb');\n",
      'daemon/required-driver.ts': "import { createRequire } from 'node:module';\nexport const load = () => createRequire(import.meta.url)('pg');\n",
      'importers/sneaky.ts': "import http from 'node:http';\nexport const h = http;\n",
      'daemon/fine.ts':
        "import { isIP, BlockList } from 'node:net';\nimport type { Dispatcher } from 'undici';\n// fetch(url) in a comment\nconst deps = { fetch: (n: number) => n };\nexport const ok = [isIP, BlockList, 'fetch(', deps.fetch(1)];\n",
      'probes/egress-fetch.ts': "import { fetch as undiciFetch } from 'undici';\nexport const f = undiciFetch;\n",
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(scratch, path)), { recursive: true });
      writeFileSync(join(scratch, path), text);
    }
    expect(bypasses(scratch)).toEqual([
      'daemon/auth/saml/idp-metadata.ts: global fetch',
      'daemon/channel.ts: undici',
      'daemon/deps-default.ts: global fetch',
      'daemon/notify/raw.ts: node:https',
      'daemon/required-driver.ts: pg',
      'daemon/server-default.ts: global fetch',
      'importers/sneaky.ts: node:http',
      'probes/types/lazy-driver.ts: mongodb',
      'probes/types/raw-socket.ts: node:net',
    ]);
  });
});
