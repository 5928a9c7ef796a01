import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runImport } from '../daemon/import/run-import.js';
import { convertImport, fetchWithToken, IMPORT_SOURCES, type ConversionResult, type ImportResponse, type ImportSource } from '../importers/index.js';
import { cronMonitorJson, gatusYaml, hostedMonitorPages, uptimeRobotJson } from './import-inputs.js';
import { kumaDatabase } from './import-kuma-db.js';
import { postgresReachable, rawBulkInsert, startBenchDaemon, type BenchDatabaseKind } from './import-setup.js';
import { printTable } from './table.js';
import { flag } from './flags.js';
import { describeStall, withStalls, type Stall } from './stalls.js';

const MONITORS = 10_000;
const HOSTED_TOKEN = 'bench-hosted-token';
const HOSTED_PER_PAGE = 250;
/** An apply and a preview of MONITORS monitors through the endpoint, on SQLite. */
const TARGET_APPLY_MS = 1000;
const TARGET_PREVIEW_MS = 700;
/** The check store's apply alone (the writes). */
const TARGET_STORE_APPLY_MS = 2000;
const TARGET_RATIO = 5;
const TARGET_CLI_MS = 2000;
const TARGET_LOOP_P99_MS = 50;
const SVC_BIN = fileURLToPath(new URL('../../bin/svc', import.meta.url));

/** `--sources=a,b` and `--databases=sqlite` measure only those (the CLI's run stays with the full set). */
const ONLY_SOURCES = flag('sources')?.split(',');
const ONLY_DATABASES = flag('databases')?.split(',');
/** `--stalls`: the apply through the endpoint runs under the profiler, and its longest stalls of the event loop are named (stalls.ts). */
const STALLS = flag('stalls') !== undefined;

/** The hosted monitoring API, locally: its pages of monitors behind a bearer token. */
async function startHostedApi(): Promise<{ url: string; server: Server }> {
  let pages: string[] = [];
  const empty = JSON.stringify({ data: [], pagination: { first: null, last: null, prev: null, next: null } });
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    res.setHeader('content-type', 'application/json');
    if (req.headers.authorization !== `Bearer ${HOSTED_TOKEN}`) {
      res.statusCode = 401;
      return res.end('{"errors":"Invalid Team API token"}');
    }
    if (url.pathname === '/api/v2/monitors') return res.end(pages[Number(url.searchParams.get('page') ?? '1') - 1] ?? empty);
    res.end(empty);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  pages = hostedMonitorPages(MONITORS, HOSTED_PER_PAGE, url);
  return { url, server };
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await fn();
  return [value, performance.now() - started];
}

/**
 * `fn`'s result and the event-loop delay p99 and largest while it ran, in ms. The daemon runs in
 * this process, so this is how long its other requests would have waited behind the import (one
 * long stall is a single sample: the p99 hides it, the largest shows it).
 */
async function withLoopDelay<T>(fn: () => Promise<T>): Promise<[T, { p99: number; max: number }]> {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  try {
    const value = await fn();
    return [value, { p99: histogram.percentile(99) / 1e6, max: histogram.max / 1e6 }];
  } finally {
    histogram.disable();
  }
}

/** One call of the convert endpoint; fails the benchmark on anything but 200. */
async function convertCall(url: string, token: string, source: ImportSource, body: Uint8Array, dryRun: boolean): Promise<ImportResponse> {
  const res = await fetch(`${url}/api/v1/orgs/default/checks/import/convert?source=${source}${dryRun ? '&dryRun=true' : ''}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
    body,
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${source} import answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as ImportResponse;
}

interface SourceFigures {
  checks: number;
  skipped: number;
  warnings: number;
  convertMs: number;
  previewMs: number;
  applyMs: number;
  /** The apply of the body without its preview, as the first import of a fresh daemon (`svc import --yes`): its conversion included. */
  applyWithoutPreviewMs: number;
  rerunMs: number;
  storeApplyMs: number;
  rawInsertMs: number;
  applyToRaw: number;
  storeApplyToRaw: number;
  /** Event-loop delay p99 while the apply through the endpoint ran. */
  applyLoopP99Ms: number;
  /** The largest event-loop delay while it ran. */
  applyLoopMaxMs: number;
  /** With `--stalls`: the longest stalls of the loop during the apply, and the code that held it. */
  applyStalls?: Stall[];
}

const round = (n: number) => Math.round(n * 10) / 10;
const ms = (n: number) => `${Math.round(n)} ms`;

async function measureSource(kind: BenchDatabaseKind, source: ImportSource, body: Uint8Array, hostedUrl: string): Promise<SourceFigures> {
  const env = { SVC_IMPORT_HOSTED_MONITOR_API_URL: hostedUrl };
  // The conversion alone, in this process: what every preview and apply spends before the database.
  const [result, convertMs] = await timed<ConversionResult>(async () => {
    const input = source === 'hosted-monitor-api' ? await fetchWithToken(source, body, { baseUrl: hostedUrl }) : body;
    return convertImport(source, input);
  });

  const raw = await startBenchDaemon(kind, env);
  const rawInsertMs = await rawBulkInsert(raw, result.checks).finally(() => raw.stop());

  const store = await startBenchDaemon(kind, env);
  const [, storeApplyMs] = await timed(() => runImport(store.daemon.deps, store.orgUid, source, result, { dryRun: false })).finally(() => store.stop());

  const api = await startBenchDaemon(kind, env);
  try {
    const [preview, previewMs] = await timed(() => convertCall(api.daemon.url, api.token, source, body, true));
    const apply = () => withLoopDelay(() => timed(() => convertCall(api.daemon.url, api.token, source, body, false)));
    const [[[applied, applyMs], applyLoop], applyStalls] = STALLS ? await withStalls(apply) : [await apply(), undefined];
    const [rerun, rerunMs] = await timed(() => convertCall(api.daemon.url, api.token, source, body, false));
    if (preview.created !== result.checks.length || applied.created !== preview.created || applied.warnings.length !== preview.warnings.length) {
      throw new Error(`${source}: preview and apply disagree (${preview.created} vs ${applied.created} created)`);
    }
    if (rerun.created !== 0 || rerun.updated !== 0 || rerun.unchanged !== result.checks.length) {
      throw new Error(`${source}: the re-run changed something (${rerun.created} created, ${rerun.updated} updated)`);
    }
    const applyWithoutPreviewMs = await measureApplyWithoutPreview(kind, source, body, env);
    return {
      checks: result.checks.length,
      skipped: result.skipped.length,
      warnings: result.warnings.length,
      convertMs: round(convertMs),
      previewMs: round(previewMs),
      applyMs: round(applyMs),
      applyWithoutPreviewMs: round(applyWithoutPreviewMs),
      rerunMs: round(rerunMs),
      storeApplyMs: round(storeApplyMs),
      rawInsertMs: round(rawInsertMs),
      applyToRaw: round(applyMs / rawInsertMs),
      storeApplyToRaw: round(storeApplyMs / rawInsertMs),
      applyLoopP99Ms: round(applyLoop.p99),
      applyLoopMaxMs: round(applyLoop.max),
      ...(applyStalls ? { applyStalls } : {}),
    };
  } finally {
    await api.stop();
  }
}

/** The apply of `body` without a preview, as the first import of a fresh daemon (`svc import --yes`). */
async function measureApplyWithoutPreview(kind: BenchDatabaseKind, source: ImportSource, body: Uint8Array, env: Record<string, string>): Promise<number> {
  const daemon = await startBenchDaemon(kind, env);
  try {
    const [applied, ms] = await timed(() => convertCall(daemon.daemon.url, daemon.token, source, body, false));
    if (applied.created === 0) throw new Error(`${source}: the apply without a preview created nothing`);
    return ms;
  } finally {
    await daemon.stop();
  }
}

// Preloaded into the CLI process: reports its own CPU time on exit, so that the figure can be
// told apart from time spent waiting for a busy machine's cores.
const REPORT_CPU = `data:text/javascript,process.on('exit',()=>{const u=process.cpuUsage();process.stderr.write('\\ncpu-us:'+(u.user+u.system))})`;

/** `svc import --local` as a process on the 10,000-monitor database: the median of three runs. */
function measureCli(databaseFile: string): { cliLocalMs: number; cliLocalCpuMs: number; cliChecks: number } {
  const times: number[] = [];
  const cpu: number[] = [];
  let checks = 0;
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    const args = ['--import', REPORT_CPU, SVC_BIN, 'import', '--source', 'selfhosted-monitor-db', '--file', databaseFile, '--local', '--json'];
    const child = spawnSync(process.execPath, args, {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
      env: { PATH: process.env.PATH ?? '', HOME: tmpdir(), NO_COLOR: '1' },
    });
    times.push(performance.now() - started);
    if (child.status !== 0) throw new Error(`svc import --local exited ${child.status}: ${child.stderr}`);
    checks = (JSON.parse(child.stdout) as ImportResponse).created;
    cpu.push(Number(/cpu-us:(\d+)/.exec(child.stderr)?.[1] ?? NaN) / 1000);
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[1];
  return { cliLocalMs: round(median(times)), cliLocalCpuMs: round(median(cpu)), cliChecks: checks };
}

/**
 * 10,000 monitors per source: the conversion, then preview, apply and a re-run through the
 * endpoint, an apply without a preview on a fresh daemon, and the check store's apply alone,
 * each against a raw bulk insert of the same rows on a fresh database in the same run; on
 * SQLite, and on PostgreSQL when it answers.
 */
export async function run(): Promise<Record<string, unknown>> {
  // Wall times on a shared machine depend on its load; it is recorded with the figures.
  const loadStart = loadavg()[0].toFixed(1);
  const hosted = await startHostedApi();
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-import-'));
  try {
    const kuma = await kumaDatabase(MONITORS);
    const databaseFile = join(dir, 'kuma.db');
    writeFileSync(databaseFile, kuma);
    // The sources measured: each with a generated body of MONITORS items.
    const bodies: Partial<Record<ImportSource, Uint8Array>> = {
      'configfile-monitor': new TextEncoder().encode(gatusYaml(MONITORS)),
      'cron-monitor-api': new TextEncoder().encode(cronMonitorJson(MONITORS)),
      'hosted-monitor-api': new TextEncoder().encode(HOSTED_TOKEN),
      'selfhosted-monitor-db': kuma,
      'uptime-api-monitor': new TextEncoder().encode(uptimeRobotJson(MONITORS)),
    };
    const kinds = ((await postgresReachable()) ? ['sqlite', 'postgres'] : ['sqlite']).filter(
      (kind) => !ONLY_DATABASES || ONLY_DATABASES.includes(kind),
    ) as BenchDatabaseKind[];
    const figures: Record<string, Record<string, SourceFigures>> = {};
    const rows: string[][] = [];
    for (const kind of kinds) {
      figures[kind] = {};
      for (const source of IMPORT_SOURCES) {
        const body = bodies[source];
        if (!body || (ONLY_SOURCES && !ONLY_SOURCES.includes(source))) continue;
        const f = await measureSource(kind, source, body, hosted.url);
        figures[kind][source] = f;
        rows.push([
          kind,
          source,
          String(f.checks),
          ms(f.convertMs),
          ms(f.previewMs),
          ms(f.applyMs),
          ms(f.applyWithoutPreviewMs),
          ms(f.rerunMs),
          ms(f.storeApplyMs),
          ms(f.rawInsertMs),
          `${f.applyToRaw}x`,
          `${f.storeApplyToRaw}x`,
          `${f.applyLoopP99Ms} ms`,
          `${f.applyLoopMaxMs} ms`,
        ]);
      }
    }
    printTable(rows, [
      'db',
      'source',
      'checks',
      'convert',
      'preview',
      'apply',
      'apply, no preview',
      're-run',
      'store apply',
      'raw insert',
      'apply/raw',
      'store/raw',
      'loop p99 (apply)',
      'loop max (apply)',
    ]);

    if (STALLS) {
      process.stdout.write('\nThe longest stalls of the event loop during each apply (the applies ran under the profiler):\n');
      for (const [kind, bySource] of Object.entries(figures)) {
        for (const [source, f] of Object.entries(bySource)) {
          process.stdout.write(`${kind} ${source}:\n${f.applyStalls?.map(describeStall).join('\n') || '  none of 30 ms or more'}\n`);
        }
      }
    }

    const cli = measureCli(databaseFile);
    const worstLoop = Math.max(...Object.values(figures).flatMap((byKind) => Object.values(byKind).map((f) => f.applyLoopP99Ms)));
    const longestStall = Math.max(...Object.values(figures).flatMap((byKind) => Object.values(byKind).map((f) => f.applyLoopMaxMs)));
    const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
    // The targets of each database measured, judged on its slowest source.
    const perDatabase = Object.entries(figures).flatMap(([kind, bySource]) => {
      const name = kind === 'sqlite' ? 'SQLite' : 'PostgreSQL';
      const worst = (key: Exclude<keyof SourceFigures, 'applyStalls'>) => Math.max(...Object.values(bySource).map((f) => f[key]));
      return [
        [`slowest apply through the endpoint, ${name}`, ms(worst('applyMs')), `<= ${TARGET_APPLY_MS} ms: ${verdict(worst('applyMs') <= TARGET_APPLY_MS)}`],
        [
          `slowest apply without a preview (a fresh daemon's first import), ${name}`,
          ms(worst('applyWithoutPreviewMs')),
          `<= ${TARGET_APPLY_MS} ms: ${verdict(worst('applyWithoutPreviewMs') <= TARGET_APPLY_MS)}`,
        ],
        [
          `slowest preview through the endpoint, ${name}`,
          ms(worst('previewMs')),
          `<= ${TARGET_PREVIEW_MS} ms: ${verdict(worst('previewMs') <= TARGET_PREVIEW_MS)}`,
        ],
        [`highest apply/raw through the endpoint, ${name}`, `${worst('applyToRaw')}x`, `<= ${TARGET_RATIO}x: ${verdict(worst('applyToRaw') <= TARGET_RATIO)}`],
        [
          `slowest store apply (writes only), ${name}`,
          ms(worst('storeApplyMs')),
          `< ${TARGET_STORE_APPLY_MS} ms: ${verdict(worst('storeApplyMs') < TARGET_STORE_APPLY_MS)}`,
        ],
        [`highest store apply/raw, ${name}`, `${worst('storeApplyToRaw')}x`, `<= ${TARGET_RATIO}x: ${verdict(worst('storeApplyToRaw') <= TARGET_RATIO)}`],
      ];
    });
    process.stdout.write('\n');
    printTable(
      [
        ...perDatabase,
        [
          `event-loop delay p99 during a ${MONITORS}-monitor apply, worst source and database`,
          `${worstLoop} ms`,
          `< ${TARGET_LOOP_P99_MS} ms: ${verdict(worstLoop < TARGET_LOOP_P99_MS)}`,
        ],
        [`  largest event-loop delay during a ${MONITORS}-monitor apply, worst source and database`, `${longestStall} ms`, ''],
        [`svc import --local, ${MONITORS} monitors in a 2.x database`, ms(cli.cliLocalMs), `< ${TARGET_CLI_MS} ms: ${verdict(cli.cliLocalMs < TARGET_CLI_MS)}`],
        ['  of which CPU time of the process', ms(cli.cliLocalCpuMs), ''],
        ['load average (1 min) at start / end', `${loadStart} / ${loadavg()[0].toFixed(1)}`, `${availableParallelism()} cores`],
      ],
      ['measure', 'value', 'target'],
    );
    return { monitors: MONITORS, databases: kinds, ...figures, ...cli, loadAverage: [Number(loadStart), round(loadavg()[0])] };
  } finally {
    hosted.server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
