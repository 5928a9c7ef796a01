import { sql } from 'kysely';
import type { AppDeps } from '../deps.js';
import { AppError } from '../errors.js';

type Deps = Pick<AppDeps, 'db' | 'clock'>;

/**
 * Fixed-window counters kept in the database, so every replica shares them.
 * `key` names what is counted, such as `login:email:a@b.c` or `login:ip:127.0.0.1`.
 */
export class RateLimiter {
  constructor(
    private readonly deps: Deps,
    private readonly max: number,
    private readonly windowSeconds: number,
  ) {}

  /** Counts one attempt under each key (one atomic upsert per key). */
  async hit(...keys: string[]): Promise<void> {
    const now = this.deps.clock.now();
    const stale = new Date(now.getTime() - this.windowSeconds * 1000).toISOString();
    for (const key of keys) {
      await sql`
        insert into rate_limits (key, window_start, count) values (${key}, ${now.toISOString()}, 1)
        on conflict (key) do update set
          count = case when rate_limits.window_start <= ${stale} then 1 else rate_limits.count + 1 end,
          window_start = case when rate_limits.window_start <= ${stale} then excluded.window_start else rate_limits.window_start end
      `.execute(this.deps.db.kysely);
    }
  }

  /** Throws 429 RATE_LIMITED with Retry-After when any key is at the limit in its window. */
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
    const reopens = Math.max(...rows.map((r) => Date.parse(r.window_start) + this.windowSeconds * 1000));
    const retryAfter = Math.max(1, Math.ceil((reopens - now.getTime()) / 1000));
    throw new AppError('RATE_LIMITED', `Too many attempts; try again in ${retryAfter} seconds.`, { retryAfterSeconds: retryAfter }, { 'Retry-After': String(retryAfter) });
  }

  /** Forgets the count under a key (a successful sign-in clears its e-mail's failures). */
  async reset(key: string): Promise<void> {
    await this.deps.db.kysely.deleteFrom('rate_limits').where('key', '=', key).execute();
  }
}
