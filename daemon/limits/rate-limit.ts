import { sql } from 'kysely';
import type { AppDeps } from '../deps.js';
import { AppError } from '../errors.js';
import { inTransaction } from '../db/in-transaction.js';

type Deps = Pick<AppDeps, 'db' | 'clock'>;

/**
 * Fixed-window counters kept in the database, so every replica shares them.
 * `key` names what is counted, such as `login:email:a@b.c` or `login:ip:127.0.0.1`.
 */
export class RateLimiter {
  constructor(
    private readonly deps: Deps,
    /** Attempts allowed per key in one window. */
    readonly max: number,
    private readonly windowSeconds: number,
  ) {}

  /**
   * Reserves one attempt under `key` before the slow work it guards, in one atomic upsert: the
   * count goes up and is read back in the same statement, so concurrent attempts (on any replica)
   * each see their own place in the window and at most `max` of them ever pass. Answers the
   * attempt's place and, past the limit, the 429 RATE_LIMITED (with Retry-After) to throw.
   */
  async attempt(key: string): Promise<{ place: number; refusal?: AppError }> {
    const now = this.deps.clock.now();
    const stale = new Date(now.getTime() - this.windowSeconds * 1000).toISOString();
    const upsert = sql<{ count: number | string; window_start: string }>`
      insert into rate_limits (key, window_start, count) values (${key}, ${now.toISOString()}, 1)
      on conflict (key) do update set
        count = case when rate_limits.window_start <= ${stale} then 1 else rate_limits.count + 1 end,
        window_start = case when rate_limits.window_start <= ${stale} then excluded.window_start else rate_limits.window_start end
      returning count, window_start
    `;
    // A counter is not worth a disk flush on every request (public status pages count every
    // view): on PostgreSQL the upsert commits without waiting for its WAL to reach the disk. A
    // crash can forget the last moment's attempts, never let more through than it counted.
    const { rows } =
      this.deps.db.kind === 'postgres'
        ? await inTransaction(this.deps.db.kysely, async (trx) => {
            await sql`set local synchronous_commit = off`.execute(trx);
            return upsert.execute(trx);
          })
        : await upsert.execute(this.deps.db.kysely);
    const place = Number(rows[0].count);
    return place > this.max ? { place, refusal: this.limited(Date.parse(rows[0].window_start)) } : { place };
  }

  /** Reserves one attempt under `key` (see `attempt`); throws the 429 past the limit. */
  async reserve(key: string): Promise<void> {
    const { refusal } = await this.attempt(key);
    if (refusal) throw refusal;
  }

  /** Gives back one reserved attempt that turned out to be good (it should not count). */
  async release(key: string): Promise<void> {
    await this.deps.db.kysely
      .updateTable('rate_limits')
      .set((eb) => ({ count: eb('count', '-', 1) }))
      .where('key', '=', key)
      .where('count', '>', 0)
      .execute();
  }

  private limited(windowStartMs: number): AppError {
    const reopens = windowStartMs + this.windowSeconds * 1000;
    const retryAfter = Math.max(1, Math.ceil((reopens - this.deps.clock.now().getTime()) / 1000));
    return new AppError(
      'RATE_LIMITED',
      `Too many attempts; try again in ${retryAfter} seconds.`,
      { retryAfterSeconds: retryAfter },
      { 'Retry-After': String(retryAfter) },
    );
  }

  /**
   * Throws 429 RATE_LIMITED with Retry-After when any key is at the limit in its window. Only a
   * look: an attempt that is about to do slow work reserves its place with `reserve` instead.
   */
  async check(...keys: string[]): Promise<void> {
    const now = this.deps.clock.now();
    const stale = new Date(now.getTime() - this.windowSeconds * 1000).toISOString();
    const rows = await this.deps.db.kysely
      .selectFrom('rate_limits')
      .select(['window_start', 'count'])
      .where('key', 'in', keys)
      .where('window_start', '>', stale)
      .where('count', '>=', this.max)
      .execute();
    if (rows.length === 0) return;
    throw this.limited(Math.max(...rows.map((r) => Date.parse(r.window_start))));
  }

  /** Forgets the count under a key (a successful sign-in clears its e-mail's failures). */
  async reset(key: string): Promise<void> {
    await this.deps.db.kysely.deleteFrom('rate_limits').where('key', '=', key).execute();
  }

  /** Forgets the counts under every key starting with `prefix`. */
  async resetPrefix(prefix: string): Promise<void> {
    const pattern = `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    await sql`delete from rate_limits where key like ${pattern} escape '\\'`.execute(this.deps.db.kysely);
  }
}
