import { afterEach, describe, expect, it } from 'vitest';
import { ConversionWorkers } from '../../../daemon/import/conversion-workers.js';
import { convertOffThread } from '../../../daemon/import/convert-off-thread.js';

// Conversions run on a worker thread (the compiled one in dist/: `npm run build` first).
const SOURCE = 'uptime-api-monitor';
const input = (count: number) =>
  new TextEncoder().encode(
    JSON.stringify({
      stat: 'ok',
      monitors: Array.from({ length: count }, (_, i) => ({ id: i + 1, friendly_name: `Site ${i}`, url: `https://s${i}.example.com/`, type: 1, interval: 300 })),
    }),
  );
const limits = { timeoutMs: 30_000, memoryMb: 256, apiUrl: 'http://127.0.0.1:9' };

describe('conversion workers started ahead', () => {
  const opened: ConversionWorkers[] = [];
  const workers = () => {
    const made = new ConversionWorkers();
    opened.push(made);
    return made;
  };
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((made) => made.close()));
  });

  it("starts nothing before the first import, then the next import's worker once one has run, which converts the same", async () => {
    const app = workers();
    expect(app.prepared).toBe(false);
    const alone = await convertOffThread(SOURCE, input(3), limits);
    expect(alone.result.checks).toHaveLength(3);
    const first = await convertOffThread(SOURCE, input(3), limits, app);
    expect(app.prepared).toBe(true);
    const second = await convertOffThread(SOURCE, input(3), limits, app);
    expect(app.prepared).toBe(true);
    for (const converted of [first, second]) {
      expect(converted.result.checks).toEqual(alone.result.checks);
      expect(converted.digest).toBe(alone.digest);
    }
  });

  it('hands over the worker started ahead, running already, for the same memory limit only', async () => {
    const app = workers();
    app.prepare(limits.memoryMb, SOURCE);
    const ready = app.take(limits.memoryMb);
    expect(ready.workers).toBe(1);
    expect(app.prepared).toBe(false);
    await ready.close();

    app.prepare(limits.memoryMb, SOURCE);
    const other = app.take(limits.memoryMb * 2);
    expect(other.workers).toBe(0);
    expect(app.prepared).toBe(false);
    await other.close();
  });

  it('stops the worker started ahead when the app closes, and starts none after', async () => {
    const app = workers();
    await convertOffThread(SOURCE, input(1), limits, app);
    expect(app.prepared).toBe(true);
    await app.close();
    expect(app.prepared).toBe(false);
    app.prepare(limits.memoryMb, SOURCE);
    expect(app.prepared).toBe(false);
  });
});
