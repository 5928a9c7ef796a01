import { chromium, type Page } from 'playwright-core';
import { upsertChecks } from '../daemon/checks/check-store.js';
import { ensureStates } from '../daemon/runner/check-states.js';
import { sampleCheck, type CheckDefinition } from '../checks/index.js';
import { measureOnEachDatabase } from './each-database.js';
import type { BenchDaemon } from './import-setup.js';

const CHECKS = 10_000;
/** Checks with recent results, so the first page draws its sparklines. */
const WITH_RESULTS = 100;
const RESULTS_EACH = 20;
const SAMPLES = 10;
const WARM_UP = 2;
const TARGET_MS = 1000;
const CHROMIUM = process.env.SVC_TEST_CHROMIUM ?? '/usr/bin/chromium';

const round = (n: number) => Math.round(n);
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** 10,000 HTTP checks in the default organization; the first 100 with 20 results each. */
async function seed(bench: BenchDaemon): Promise<void> {
  const { db } = bench.daemon.deps;
  const sample = sampleCheck('http')!;
  const checks: CheckDefinition[] = Array.from({ length: CHECKS }, (_, i) => ({ ...sample, slug: `service-${i}`, name: `Service ${i}` }));
  const now = Date.now();
  for (let i = 0; i < checks.length; i += 1000) {
    await db.kysely.transaction().execute((trx) => upsertChecks(trx, bench.orgUid, checks.slice(i, i + 1000), { now: new Date(now) }));
  }
  await ensureStates(db.kysely, now);
  const states = await db.kysely.selectFrom('check_states').select(['series', 'check_uid']).orderBy('series').limit(WITH_RESULTS).execute();
  const results = states.flatMap(({ series }) =>
    Array.from({ length: RESULTS_EACH }, (_, r) => ({
      series: Number(series),
      at: now - (RESULTS_EACH - r) * 60_000,
      status: 0,
      latency_ms: 20 + ((r * 7) % 30),
      message: 'HTTP 200',
    })),
  );
  for (let i = 0; i < results.length; i += 500)
    await db.kysely
      .insertInto('check_results')
      .values(results.slice(i, i + 500))
      .execute();
  for (const { check_uid } of states) {
    await db.kysely
      .updateTable('check_states')
      .set({ state: 'up', last_at: now - 60_000, last_status: 0, last_latency_ms: 25, last_message: 'HTTP 200' })
      .where('check_uid', '=', check_uid)
      .execute();
  }
}

/** First-paint times over the samples. */
type PaintTimes = { p50Ms: number; p95Ms: number; maxMs: number };

/** Milliseconds from navigating to `path` until `selector` is in the page, SAMPLES times after a warm-up. */
async function firstPaint(page: Page, url: string, selector: string): Promise<PaintTimes> {
  const times: number[] = [];
  for (let i = 0; i < WARM_UP + SAMPLES; i++) {
    const t0 = performance.now();
    await page.goto(url);
    await page.locator(selector).first().waitFor({ timeout: 30_000 });
    if (i >= WARM_UP) times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { p50Ms: round(percentile(times, 50)), p95Ms: round(percentile(times, 95)), maxMs: round(times[times.length - 1]) };
}

async function measure(bench: BenchDaemon): Promise<{ checksList: PaintTimes & { rows: number }; overview: PaintTimes }> {
  await seed(bench);
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    // Signed in as the dashboard keeps it: the session token in this tab's sessionStorage.
    await context.addInitScript({ content: `sessionStorage.setItem('svc.session', ${JSON.stringify(bench.token)});` });
    const page = await context.newPage();
    const base = `${bench.daemon.url}/orgs/default`;
    const list = await firstPaint(page, `${base}/checks`, 'tbody tr svg.sparkline');
    const rows = await page.locator('tbody tr').count();
    const overview = await firstPaint(page, `${base}/overview`, `[data-count="pending"] .count >> text=${CHECKS - WITH_RESULTS}`);
    return { checksList: { ...list, rows }, overview };
  } finally {
    await browser.close();
  }
}

/**
 * First paint of the dashboard with 10,000 checks in Chromium: the checks list (its first page
 * of 50 rows, with their sparklines) and the overview (the counts per state), on SQLite and on
 * PostgreSQL when one answers. Target: the list under 1 s.
 */
export async function run(): Promise<Record<string, unknown>> {
  return measureOnEachDatabase({
    figures: { checks: CHECKS, samples: SAMPLES, targetMs: TARGET_MS },
    measure,
    rows: (kind, result) => [
      [
        `${kind}: checks list first paint p50 / p95 (${result.checksList.rows} rows)`,
        `${result.checksList.p50Ms} / ${result.checksList.p95Ms} ms`,
        `< ${TARGET_MS} ms`,
      ],
      [`${kind}: overview first paint p50 / p95`, `${result.overview.p50Ms} / ${result.overview.p95Ms} ms`, ''],
    ],
  });
}
