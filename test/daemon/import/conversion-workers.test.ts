import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CONVERSION_WORKER_ENTRY, ConversionWorkers, conversionPool } from '../../../daemon/import/conversion-workers.js';
import { CHECKS_PER_MESSAGE, convertOffThread } from '../../../daemon/import/convert-off-thread.js';
import { PACED_AHEAD } from '../../../daemon/workers/serve-worker.js';
import { closedAfterEach } from '../../support/closed-after-each.js';
import { ImportInputError } from '../../../importers/index.js';

// Conversions run on a worker thread (the bundle built in dist/: `npm run build` first).
const SOURCE = 'uptime-api-monitor';
const input = (count: number) =>
  new TextEncoder().encode(
    JSON.stringify({
      stat: 'ok',
      monitors: Array.from({ length: count }, (_, i) => ({ id: i + 1, friendly_name: `Site ${i}`, url: `https://s${i}.example.com/`, type: 1, interval: 300 })),
    }),
  );
const limits = { timeoutMs: 30_000, memoryMb: 256, apiUrl: 'http://127.0.0.1:9' };

const MB = limits.memoryMb;

describe('the conversion worker bundle', () => {
  it('holds the worker with zod and js-yaml, each converter a chunk of its own; sql.js and undici load from node_modules', () => {
    const directory = fileURLToPath(new URL('.', CONVERSION_WORKER_ENTRY));
    const chunks = readdirSync(directory).filter((file) => file.endsWith('.js'));
    const code = chunks.map((file) => readFileSync(`${directory}/${file}`, 'utf8')).join('\n');
    const imported = new Set([...code.matchAll(/(?:from |import\()"([^".][^"]*)"/g)].map((match) => match[1]));
    expect(imported).not.toContain('zod');
    expect(imported).not.toContain('js-yaml');
    expect(imported).toContain('sql.js');
    expect(imported).toContain('undici');
    expect(chunks.some((file) => file.startsWith('uptime-kuma-'))).toBe(true);
    expect(chunks.some((file) => file.startsWith('gatus-'))).toBe(true);
  });
});

describe('conversion workers started ahead and kept', () => {
  const workers = closedAfterEach((options?: { warmMs?: number }) => new ConversionWorkers(options));

  it('starts nothing before the first import, then keeps a worker once one has run, which converts the same', async () => {
    const app = workers();
    expect(app.hasSpare).toBe(false);
    const alone = await convertOffThread(SOURCE, input(3), limits);
    expect(alone.result.checks).toHaveLength(3);
    const first = await convertOffThread(SOURCE, input(3), limits, { pool: app, org: 'org-a' });
    expect(app.hasSpare).toBe(true);
    const second = await convertOffThread(SOURCE, input(3), limits, { pool: app, org: 'org-a' });
    expect(app.hasSpare).toBe(true);
    for (const converted of [first, second]) {
      expect(converted.result.checks).toEqual(alone.result.checks);
      expect(converted.digest).toBe(alone.digest);
    }
  });

  it('answers the next import of the same bytes from the kept worker without converting again, and only the last', async () => {
    const app = workers();
    const first = await convertOffThread(SOURCE, input(4), limits, { pool: app, org: 'org-a' });
    const again = await convertOffThread(SOURCE, input(4), limits, { pool: app, org: 'org-a' });
    expect([first.reused, again.reused]).toEqual([false, true]);
    expect(again.result).toEqual(first.result);
    expect(again.canonical).toEqual(first.canonical);
    expect(again.digest).toBe(first.digest);
    // Other bytes are converted; the first bytes then are too, since only the last conversion is kept.
    const other = await convertOffThread(SOURCE, input(5), limits, { pool: app, org: 'org-a' });
    const back = await convertOffThread(SOURCE, input(4), limits, { pool: app, org: 'org-a' });
    expect([other.reused, back.reused]).toEqual([false, false]);
    expect(other.result.checks).toHaveLength(5);
    expect(back.digest).toBe(first.digest);
    // Another source of the same bytes is converted as that source.
    await expect(convertOffThread('selfhosted-monitor-db', input(4), limits, { pool: app, org: 'org-a' })).rejects.toThrow(ImportInputError);
    // A worker another organization gets keeps nothing of org-a's.
    const elsewhere = await convertOffThread(SOURCE, input(4), limits, { pool: app, org: 'org-b' });
    expect(elsewhere.reused).toBe(false);
  });

  it("keeps the worker of a whole conversion for its organization's next import only", async () => {
    const app = workers();
    await convertOffThread(SOURCE, input(3), limits, { pool: app, org: 'org-a' });
    const kept = app.take(MB, 'org-a');
    expect(kept.workers).toBe(1);
    app.release(kept, MB, SOURCE, 'org-a', true);
    // Another organization gets a worker of its own; the kept one is stopped.
    const other = app.take(MB, 'org-b');
    expect(other.workers).toBe(0);
    expect(app.hasSpare).toBe(false);
    await expect.poll(() => kept.workers).toBe(0);
    await other.close();
  });

  it('hands a fresh worker started ahead to any organization, for the same memory limit only', async () => {
    const app = workers();
    app.prepare(MB, SOURCE);
    const ready = app.take(MB, 'org-b');
    expect(ready.workers).toBe(1);
    expect(app.hasSpare).toBe(false);
    await ready.close();

    app.prepare(MB, SOURCE);
    const other = app.take(MB * 2, 'org-b');
    expect(other.workers).toBe(0);
    expect(app.hasSpare).toBe(false);
    await other.close();
  });

  it('keeps no worker whose conversion did not come back whole: a fresh one waits instead', async () => {
    const app = workers();
    await expect(convertOffThread(SOURCE, new TextEncoder().encode('not json'), limits, { pool: app, org: 'org-a' })).rejects.toThrow(/JSON/);
    expect(app.hasSpare).toBe(true);
    // A fresh worker: another organization may have it.
    const fresh = app.take(MB, 'org-b');
    expect(fresh.workers).toBe(1);
    await fresh.close();
  });

  it('stops a kept worker once it has waited long enough, and starts a fresh one ahead', async () => {
    const app = workers({ warmMs: 50 });
    await convertOffThread(SOURCE, input(3), limits, { pool: app, org: 'org-a' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const fresh = app.take(MB, 'org-b');
    expect(fresh.workers).toBe(1);
    await fresh.close();
  });

  it('stops the spare worker when the app closes, and starts none after', async () => {
    const app = workers();
    await convertOffThread(SOURCE, input(1), limits, { pool: app, org: 'org-a' });
    expect(app.hasSpare).toBe(true);
    await app.close();
    expect(app.hasSpare).toBe(false);
    app.prepare(MB, SOURCE);
    expect(app.hasSpare).toBe(false);
  });
});

describe("a conversion's batches", () => {
  const pools = closedAfterEach(() => conversionPool(MB));

  // The worker paces its batches (serve-worker.ts): it sends the next once the main thread has
  // read one, so no more than PACED_AHEAD wait at once. A kept conversion has all of them ready;
  // unpaced, the main thread read the 20 batches of 10,000 checks in one turn of its event loop.
  it.each([false, true])('reach the main thread a few per turn of its event loop (answered from the kept conversion: %s)', async (kept) => {
    const pool = pools();
    const batches = 8;
    const job = { source: SOURCE, input: input(batches * CHECKS_PER_MESSAGE), apiUrl: limits.apiUrl } as const;
    if (kept) expect((await pool.run(job, {})).ok).toBe(true);
    let turn = 0;
    let ticking = true;
    const tick = () => {
      turn++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const turnOfBatch: number[] = [];
    const outcome = await pool.run(job, { onProgress: () => turnOfBatch.push(turn) });
    ticking = false;
    expect(outcome.ok && 'done' in outcome.value && outcome.value.done.reused).toBe(kept);
    expect(turnOfBatch).toHaveLength(batches);
    const mostInOneTurn = Math.max(...[...new Set(turnOfBatch)].map((at) => turnOfBatch.filter((other) => other === at).length));
    expect(mostInOneTurn).toBeLessThanOrEqual(PACED_AHEAD);
  });
});
