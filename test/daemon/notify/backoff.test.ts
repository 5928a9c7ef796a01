import { describe, expect, it } from 'vitest';
import { nextAttemptAt } from '../../../daemon/notify/backoff.js';

// The schedule docs/notifications.md ("Retries") and docs/status-pages.md (subscriber mail) state:
// 10 s, doubling, at most 1 h apart, for SVC_NOTIFY_RETRY_FOR after the message was written.
describe('the retry schedule of the notification and subscriber-mail outboxes', () => {
  const createdAt = '2026-03-01T12:00:00.000Z';
  const at = (iso: string) => new Date(iso);
  const DAY = 86_400;

  it('waits 10 s after the first failure, twice as long after each next, at most an hour', () => {
    const now = at('2026-03-01T12:00:00.000Z');
    const waits = [1, 2, 3, 4, 10, 11, 40].map(
      (attempts) => (nextAttemptAt({ attempts, created_at: createdAt }, { permanent: false }, now, DAY)!.getTime() - now.getTime()) / 1000,
    );
    expect(waits).toEqual([10, 20, 40, 80, 3600, 3600, 3600]);
  });

  it('never retries a permanent failure', () => {
    expect(nextAttemptAt({ attempts: 1, created_at: createdAt }, { permanent: true }, at(createdAt), DAY)).toBeUndefined();
  });

  it('retries while the next attempt falls within the retry period, and gives up after', () => {
    const row = { attempts: 1, created_at: createdAt };
    expect(nextAttemptAt(row, { permanent: false }, at('2026-03-02T11:59:50.000Z'), DAY)).toEqual(at('2026-03-02T12:00:00.000Z'));
    expect(nextAttemptAt(row, { permanent: false }, at('2026-03-02T11:59:51.000Z'), DAY)).toBeUndefined();
  });
});
