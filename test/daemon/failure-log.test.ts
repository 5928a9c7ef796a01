import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { FAILURE_REMINDER_MS, failureLog } from '../../daemon/failure-log.js';
import { createLogger } from '../../daemon/log.js';

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: createLogger('info', sink) };
}

describe('the failure log of a retrying loop', () => {
  it('logs the first failure, a reminder a minute with the count, and one line when it works again', () => {
    const { lines, logger } = capture();
    let now = 1_000_000;
    const log = failureLog(logger, { failed: 'outbox could not be read', recovered: 'outbox can be read again' }, { level: 'error', now: () => now });
    log.succeeded();
    expect(lines).toEqual([]);
    // Five attempts a second for two minutes and a half.
    for (let i = 0; i < 750; i++, now += 200) log.failed(new Error('connect ECONNREFUSED 127.0.0.1:5432'));
    expect(lines.map((line) => line.msg)).toEqual([
      'outbox could not be read',
      'outbox could not be read (301 attempts in 60 s)',
      'outbox could not be read (601 attempts in 120 s)',
    ]);
    expect(lines.every((line) => line.level === 50 && line.err === 'connect ECONNREFUSED 127.0.0.1:5432')).toBe(true);
    log.succeeded();
    log.succeeded();
    expect(lines.slice(3)).toEqual([
      expect.objectContaining({ level: 40, msg: 'outbox can be read again (after 750 failed attempts in 150 s)', attempts: 750 }),
    ]);
    // A new outage starts the count again.
    log.failed(new Error('gone again'));
    expect(lines[4]).toMatchObject({ msg: 'outbox could not be read', err: 'gone again' });
    expect(FAILURE_REMINDER_MS).toBe(60_000);
  });
});
