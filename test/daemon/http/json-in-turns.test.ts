import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTRIES_PER_TURN, jsonInTurns } from '../../../daemon/http/json-in-turns.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';
import { convertPath, gatusEndpoints } from '../import/helpers.js';

// An answer holding a long list (an import's entries for 10,000 monitors) is written as JSON a
// part a turn (daemon/http/json-in-turns.ts): the same bytes JSON.stringify gives, with the
// event loop free between the parts.

async function readAll(stream: Readable): Promise<{ text: string; pieces: number }> {
  let text = '';
  let pieces = 0;
  for await (const piece of stream) {
    text += String(piece);
    pieces++;
  }
  return { text, pieces };
}

const entry = (i: number) => ({
  slug: `s-${i}`,
  name: `Service "${i}" ✓`,
  action: i % 3 === 0 ? 'create' : 'unchanged',
  at: new Date(i * 1000),
  gone: undefined,
});

describe('an answer with a long list', () => {
  it('is left as it is when no list is longer than a turn holds', () => {
    const answer = { created: 1, checks: Array.from({ length: ENTRIES_PER_TURN }, (_, i) => entry(i)) };
    expect(jsonInTurns(answer)).toBe(answer);
    expect(jsonInTurns([1, 2, 3])).toEqual([1, 2, 3]);
    expect(jsonInTurns('text')).toBe('text');
  });

  it.each([ENTRIES_PER_TURN + 1, 2 * ENTRIES_PER_TURN, 2 * ENTRIES_PER_TURN + 7, 5_000])(
    'is written as exactly the JSON of the whole, %i entries',
    async (length) => {
      const answer = {
        source: 'configfile-monitor',
        dryRun: false,
        skippedKey: undefined,
        method: () => 1,
        'ключ "quoted"': { nested: [1, null, 'x'] },
        warnings: Array.from({ length: length + 3 }, (_, i) => (i % 5 === 0 ? undefined : { item: `w${i}`, message: 'a\nb' })),
        short: [],
        checks: Array.from({ length }, (_, i) => entry(i)),
        digest: 'abc',
      };
      const stream = jsonInTurns(answer) as Readable;
      expect(stream).not.toBe(answer);
      const { text, pieces } = await readAll(stream);
      expect(text).toBe(JSON.stringify(answer));
      // One piece per ENTRIES_PER_TURN entries of each long list, and the text around them.
      expect(pieces).toBeGreaterThanOrEqual(Math.ceil(length / ENTRIES_PER_TURN) + Math.ceil((length + 3) / ENTRIES_PER_TURN));
    },
  );

  it('lets the event loop turn between its parts', async () => {
    const answer = { checks: Array.from({ length: 4 * ENTRIES_PER_TURN }, (_, i) => entry(i)) };
    const order: string[] = [];
    let ticking = true;
    const tick = () => {
      order.push('turn');
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const stream = jsonInTurns(answer) as Readable;
    stream.on('data', () => order.push('part'));
    await new Promise((resolve) => stream.on('end', resolve));
    ticking = false;
    const parts = order.flatMap((event, index) => (event === 'part' ? [index] : []));
    const turnsBetween = order.slice(parts[0], parts[parts.length - 1]).filter((event) => event === 'turn').length;
    expect(turnsBetween).toBeGreaterThanOrEqual(3);
  });
});

describe.each(DATABASE_KINDS)('the import endpoint answering 900 entries [%s]', (kind) => {
  let daemon: TestDaemon;
  let admin: string;
  beforeAll(async () => {
    daemon = await startTestDaemon(kind);
    admin = await daemon.adminToken();
  });
  afterAll(async () => {
    await daemon.stop();
  });

  it('answers JSON, written in parts', async () => {
    const count = 900;
    const preview = await daemon.request('POST', convertPath('source=configfile-monitor&dryRun=true'), { token: admin, raw: gatusEndpoints(count) });
    expect(preview.status).toBe(200);
    expect(preview.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(preview.headers.get('transfer-encoding')).toBe('chunked');
    expect(preview.body.created).toBe(count);
    expect(preview.body.checks).toHaveLength(count);
    expect(preview.body.checks[count - 1]).toMatchObject({ slug: 'service-899', action: 'create' });
  });
});
