import type { PublicCheckState } from './public-status.js';
import type { Executor } from '../../db/executor.js';

/** What a badge may show of a check: its name (already public on a page) and its state. */
export interface BadgeCheck {
  name: string;
  state: PublicCheckState;
  /** The check's series, for its uptime; null before it ever ran. */
  series: number | null;
}

/**
 * The check `checkSlug` of organization `orgSlug` when it is listed on at least one public page
 * of that organization; undefined otherwise (no such organization, no such check, or a check no
 * public page shows), so every refusal is the same 404.
 */
export async function loadBadgeCheck(db: Executor, orgSlug: string, checkSlug: string): Promise<BadgeCheck | undefined> {
  const row = await db
    .selectFrom('checks as c')
    .innerJoin('organizations as o', 'o.uid', 'c.organization_uid')
    .leftJoin('check_states as s', 's.check_uid', 'c.uid')
    .select(['c.name', 'c.enabled', 's.series', 's.state'])
    .where('o.slug', '=', orgSlug)
    .where('c.slug', '=', checkSlug)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('status_page_checks as l')
          .innerJoin('status_pages as p', 'p.uid', 'l.status_page_uid')
          .select('l.check_uid')
          .whereRef('l.check_uid', '=', 'c.uid')
          .whereRef('p.organization_uid', '=', 'c.organization_uid')
          .where('p.public', '=', 1),
      ),
    )
    .executeTakeFirst();
  if (!row) return undefined;
  const state: PublicCheckState = !row.enabled ? 'paused' : ((row.state as PublicCheckState | null) ?? 'pending');
  return { name: row.name, state, series: row.series == null ? null : Number(row.series) };
}
