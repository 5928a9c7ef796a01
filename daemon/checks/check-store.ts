import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql, type Selectable } from 'kysely';
import { checkSwitched } from '../runner/check-switches.js';
import type { CheckDefinition } from '../../checks/index.js';
import type { Db } from '../db/connect.js';
import { newId, newIds as makeIds } from '../db/ids.js';
import { inTransaction } from '../db/in-transaction.js';
import { insertRows } from '../db/insert-rows.js';
import { preparedRead } from '../db/prepared-read.js';
import type { ChecksTable } from '../db/schema.js';
import { conflict } from '../errors.js';
import { toPage, type Page, type PageRequest } from '../http/pagination.js';
import { canonicalJson } from './canonical-json.js';
import { checkContent, rowToCheck, sameContent, type CheckContent, type StoredCheck } from './check-rows.js';
import { isUniqueViolation } from './unique-violation.js';
import type { CheckState } from '../runner/state-machine.js';
import { countChecks, refuseBeyondCheckLimit } from './check-limit.js';
import { encodePosition, type CheckListOrder, type CheckListPosition } from './check-list-query.js';
import { onPostgres, turnBetweenStatements, type Executor } from '../db/executor.js';

// The persistence of checks, shared by the REST routes, the import endpoint and the MCP tools.
// Every function takes the query builder to run on, so a caller may pass a transaction.

/** The database, or a transaction of it. */
export type { Executor };

/** One `?label=key=value` filter. */
export interface LabelFilter {
  key: string;
  value: string;
}

/** What `listChecks` returns: one page, and the cursor of the next (null on the last page). */
export type CheckPage = Page<StoredCheck>;

/** What `upsertChecks` did (or, in a dry run, would do) with one check, in input order. */
export interface UpsertOutcome {
  slug: string;
  action: 'create' | 'update' | 'unchanged' | 'conflict';
  /** The stored check's uid; absent for a `create` in a dry run. */
  uid?: string;
  /** For a `conflict`: the owner label's value on the stored check, or null when it has none. */
  owner?: string | null;
}

/**
 * Who may change existing checks in `upsertChecks`: only those whose label `key` is `value`;
 * any other is a `conflict` and left as it is, unless `takeOver`.
 */
export interface UpsertOwner {
  key: string;
  value: string;
  takeOver: boolean;
}

/**
 * What `upsertChecks` stores over an existing check, when that is not simply the incoming
 * definition (an import's re-run merges it with the check as it is here).
 */
export interface UpsertResolver {
  /** Called once with the stored rows of the matched slugs, before any is compared. */
  prepare(db: Executor, rows: readonly Selectable<ChecksTable>[]): Promise<void>;
  /** The definition to store over the row (the row's own to leave it as it is). */
  resolve(incoming: CheckDefinition, stored: Selectable<ChecksTable>): CheckDefinition;
}

// Rows per multi-row statement: 14 parameters a check stays well under both engines' limits.
const CHECK_BATCH = 500;
// Checks whose labels one statement copies. SQLite: about four labels each, and a statement holds
// the event loop while it runs. PostgreSQL: each statement runs the label rows' reference check
// once (migration 024), so fewer, larger statements.
const LABELLED_BATCH = { sqlite: 250, postgres: 2500 };
// Slugs per look-up: one parameter each, well under both engines' limits (SQLite 32,766,
// PostgreSQL 65,535). On SQLite a query holds the event loop while it runs, so a 10,000-check
// import reads what exists in a few queries of moderate size rather than one large one.
const LOOKUP_BATCH = 2000;
/** Checks compared between two turns of the event loop in upsertChecks. */
const YIELD_EVERY = 500;

const slugTaken = (slug: string) => conflict('SLUG_TAKEN', `A check with slug "${slug}" already exists in this organization.`);

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Writes the label rows of the checks `uids` from their stored `labels`: check_labels is the
 * indexed copy of that column, made by the database from it, so the two never differ and no
 * label row is built or sent by the daemon.
 */
async function copyLabels(db: Executor, uids: readonly string[]): Promise<void> {
  const postgres = onPostgres(db);
  for (const batch of chunks(uids, postgres ? LABELLED_BATCH.postgres : LABELLED_BATCH.sqlite)) {
    const labelled = postgres
      ? sql`from checks c cross join lateral json_each_text(c.labels::json) l where c.uid = any(${batch}::text[])`
      : sql`from checks c, json_each(c.labels) l where c.uid in (${sql.join(batch)})`;
    await sql`insert into check_labels (check_uid, organization_uid, key, value) select c.uid, c.organization_uid, l.key, l.value ${labelled}`.execute(db);
    await turnBetweenStatements(db);
  }
}

async function deleteLabels(db: Executor, checkUids: string[]): Promise<void> {
  for (const batch of chunks(checkUids, LOOKUP_BATCH)) await db.deleteFrom('check_labels').where('check_uid', 'in', batch).execute();
}

/**
/**
 * One page of an organization's checks, filtered by every label given (all must match), by type
 * and by state. In creation order (the default) `cursor` is the previous page's `nextCursor`; in
 * `attention` order (down, degraded, pending, up, paused, then by slug) and `name` order (slug)
 * `after` is the position that cursor encodes. With labels the query is one semi-join on the
 * (organization, key, value, check) index, whatever their number.
 */
export async function listChecks(
  db: Executor,
  orgUid: string,
  query: PageRequest & { labels?: LabelFilter[]; type?: string; state?: CheckState; order?: CheckListOrder; after?: CheckListPosition },
): Promise<CheckPage> {
  const order = query.order ?? 'created';
  // Every label must match: the check's rows matching any of the (distinct) filters are counted,
  // one pass over the (organization, key, value, check) index whatever the number of filters.
  // A check has one value per key, so two filters on one key with different values match none.
  const labels = distinctLabels(query.labels ?? []);
  // The attention rank's join is beyond the typed builder, hence the loosened type.
  let builder: any = db.selectFrom('checks').selectAll('checks').where('checks.organization_uid', '=', orgUid);
  if (labels.length > 0) {
    builder = builder.where('checks.uid', 'in', (eb: any) =>
      eb
        .selectFrom('check_labels')
        .select('check_labels.check_uid')
        .where('check_labels.organization_uid', '=', orgUid)
        .where((inner: any) =>
          inner.or(labels.map((label) => inner.and([inner('check_labels.key', '=', label.key), inner('check_labels.value', '=', label.value)]))),
        )
        .groupBy('check_labels.check_uid')
        .having((inner: any) => inner.fn.countAll(), '=', labels.length),
    );
  }
  if (query.type) builder = builder.where('checks.type', '=', query.type);
  if (query.state) builder = whereState(builder, query.state);
  if (order === 'created') {
    if (query.cursor) builder = builder.where('checks.uid', '>', query.cursor);
    const rows: Selectable<ChecksTable>[] = await builder
      .orderBy('checks.uid')
      .limit(query.limit + 1)
      .execute();
    return toPage(rows, query.limit, rowToCheck);
  }
  // Attention order ranks each check by its state as the API shows it (see whereState); name order ranks them all alike.
  // (A constant would not do for name order: SQL reads `order by 0` as a column position.)
  if (order === 'attention') {
    const rank = sql<number>`case when checks.enabled = 0 then 4 when ord.state = 'down' then 0 when ord.state = 'degraded' then 1 when ord.state = 'up' then 3 else 2 end`;
    builder = builder.leftJoin('check_states as ord', 'ord.check_uid', 'checks.uid').select(rank.as('list_rank'));
    if (query.after) {
      const { rank: afterRank, slug: afterSlug } = query.after;
      builder = builder.where((eb: any) => eb.or([eb(rank, '>', afterRank), eb.and([eb(rank, '=', afterRank), eb('checks.slug', '>', afterSlug)])]));
    }
    builder = builder.orderBy(rank);
  } else if (query.after) {
    builder = builder.where('checks.slug', '>', query.after.slug);
  }
  const rows: (Selectable<ChecksTable> & { list_rank?: number | string })[] = await builder
    .orderBy('checks.slug')
    .limit(query.limit + 1)
    .execute();
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    items: page.map((row) => rowToCheck(row)),
    nextCursor: rows.length > query.limit ? encodePosition({ rank: Number(last.list_rank ?? 0), slug: last.slug }) : null,
  };
}

function distinctLabels(labels: readonly LabelFilter[]): LabelFilter[] {
  const seen = new Map<string, LabelFilter>();
  for (const label of labels) seen.set(JSON.stringify([label.key, label.value]), label);
  return [...seen.values()];
}

/**
 * Keeps the checks in `state` as the API shows it: disabled checks are paused, and enabled ones
 * that no runner has judged yet (or that were paused before) are pending.
 */
function whereState<B extends { where: any; leftJoin: any }>(builder: B, state: CheckState): B {
  if (state === 'paused') return builder.where('checks.enabled', '=', 0);
  const joined = builder.leftJoin('check_states as st', 'st.check_uid', 'checks.uid').where('checks.enabled', '=', 1);
  return state === 'pending'
    ? joined.where((eb: any) => eb.or([eb('st.state', 'is', null), eb('st.state', 'in', ['pending', 'paused'])]))
    : joined.where('st.state', '=', state);
}

/** The check with `slug` in the organization, or undefined. */
export async function getCheck(db: Executor, orgUid: string, slug: string): Promise<StoredCheck | undefined> {
  const row = await checkBySlug(db, orgUid, slug).executeTakeFirst();
  return row && rowToCheck(row);
}

const checkBySlug = (db: Executor, orgUid: string, slug: string) =>
  db.selectFrom('checks').selectAll().where('organization_uid', '=', orgUid).where('slug', '=', slug);
const CHECK_BY_SLUG = preparedRead(checkBySlug);

/** The check with `slug` as last committed, read outside any transaction: what a GET answers. */
export async function readCheck(db: Db, orgUid: string, slug: string): Promise<StoredCheck | undefined> {
  const row = await db.readOne(CHECK_BY_SLUG, orgUid, slug);
  return row && rowToCheck(row);
}

async function findRowsBySlugs(db: Executor, orgUid: string, slugs: readonly string[]): Promise<Map<string, Selectable<ChecksTable>>> {
  const found = new Map<string, Selectable<ChecksTable>>();
  for (const [index, batch] of chunks([...new Set(slugs)], LOOKUP_BATCH).entries()) {
    if (index > 0) await turnBetweenStatements(db);
    const rows = await db.selectFrom('checks').selectAll().where('organization_uid', '=', orgUid).where('slug', 'in', batch).execute();
    for (const row of rows) found.set(row.slug, row);
  }
  return found;
}

/** The organization's checks with any of `slugs`, keyed by slug (missing slugs are absent). */
export async function findChecksBySlugs(db: Executor, orgUid: string, slugs: readonly string[]): Promise<Map<string, StoredCheck>> {
  const rows = await findRowsBySlugs(db, orgUid, slugs);
  return new Map([...rows].map(([slug, row]) => [slug, rowToCheck(row)]));
}

/**
 * Stores a new check; 409 CONFLICT `SLUG_TAKEN` when its slug is in use in the organization,
 * `CHECK_LIMIT_REACHED` when it already holds `checkLimit` checks (0: no limit).
 */
export async function createCheck(db: Executor, orgUid: string, check: CheckDefinition, now: Date, checkLimit = 0): Promise<StoredCheck> {
  const at = now.toISOString();
  const uid = newId(now.getTime());
  return inTransaction(db, async (trx) => {
    if (checkLimit > 0) refuseBeyondCheckLimit(await countChecks(trx, orgUid), 1, checkLimit);
    const inserted = await trx
      .insertInto('checks')
      .values({ uid, organization_uid: orgUid, ...checkContent(check), created_at: at, updated_at: at })
      .onConflict((oc) => oc.columns(['organization_uid', 'slug']).doNothing())
      .returning('uid')
      .executeTakeFirst();
    if (!inserted) throw slugTaken(check.slug);
    await copyLabels(trx, [uid]);
    return { ...check, uid, createdAt: at, updatedAt: at };
  });
}

/**
 * Replaces the definition of the check `uid` (its slug may change: 409 `SLUG_TAKEN` when the
 * new one is in use). Returns undefined when the check no longer exists.
 */
export async function updateCheck(db: Executor, orgUid: string, uid: string, check: CheckDefinition, now: Date): Promise<StoredCheck | undefined> {
  const at = now.toISOString();
  try {
    return await inTransaction(db, async (trx) => {
      const taken = await trx
        .selectFrom('checks')
        .select('uid')
        .where('organization_uid', '=', orgUid)
        .where('slug', '=', check.slug)
        .where('uid', '!=', uid)
        .executeTakeFirst();
      if (taken) throw slugTaken(check.slug);
      const updated = await trx
        .updateTable('checks')
        .set({ ...checkContent(check), updated_at: at })
        .where('organization_uid', '=', orgUid)
        .where('uid', '=', uid)
        .returning('created_at')
        .executeTakeFirst();
      if (!updated) return undefined;
      await deleteLabels(trx, [uid]);
      await copyLabels(trx, [uid]);
      return { ...check, uid, createdAt: updated.created_at, updatedAt: at };
    });
  } catch (error) {
    // Another request took the slug between the look-up and the update.
    if (isUniqueViolation(error)) throw slugTaken(check.slug);
    throw error;
  }
}

/** Deletes the check with `slug`; false when there is none. Its labels go with it. */
export async function deleteCheck(db: Executor, orgUid: string, slug: string): Promise<boolean> {
  const result = await db.deleteFrom('checks').where('organization_uid', '=', orgUid).where('slug', '=', slug).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Whether the row holds exactly the text `next` (a check's `checkContent`). A re-run import
 * produces the same JSON text it stored before, so this cheap test settles most rows without
 * the parse and key sort of `sameContent`.
 */
function sameStoredText(row: Selectable<ChecksTable>, next: CheckContent): boolean {
  return (
    row.config === next.config &&
    row.labels === next.labels &&
    row.thresholds === next.thresholds &&
    row.name === next.name &&
    row.type === next.type &&
    row.target === next.target &&
    Number(row.enabled) === next.enabled &&
    Number(row.interval_seconds) === next.interval_seconds &&
    (row.description ?? null) === next.description
  );
}

/**
 * Creates or updates many checks by slug in a few multi-row statements: existing ones are
 * updated in place (uid and creation time kept), identical ones are left alone, new ones get
 * uids in input order. Pass a transaction so the whole batch lands or none of it does. With
 * `dryRun` nothing is written and the outcome says what would happen. Slugs must be unique
 * within `checks` (a repeated slug throws: the caller decides which definition wins).
 */
export async function upsertChecks(
  db: Executor,
  orgUid: string,
  checks: readonly CheckDefinition[],
  options: { now: Date; dryRun?: boolean; owner?: UpsertOwner; resolver?: UpsertResolver },
): Promise<UpsertOutcome[]> {
  const seen = new Set<string>();
  for (const check of checks) {
    if (seen.has(check.slug)) throw new Error(`upsertChecks: slug "${check.slug}" appears twice`);
    seen.add(check.slug);
  }
  const existing = await findRowsBySlugs(db, orgUid, [...seen]);
  await options.resolver?.prepare(db, [...existing.values()]);
  // On SQLite the last look-up held the event loop: let other requests in before the comparison.
  await turnBetweenStatements(db);
  const newIds = makeIds(checks.filter((check) => !existing.has(check.slug)).length, options.now.getTime());
  // Sorted random tails, handed out in order, keep the input order in the listing.
  newIds.sort();
  let nextNew = 0;
  const outcomes: UpsertOutcome[] = [];
  // `content`: the check's row content, computed once per check. `keepsLabels`: an update whose
  // label set is the stored one leaves its label rows alone.
  const writes: { check: CheckDefinition; content: CheckContent; uid: string; replacesLabels: boolean; keepsLabels: boolean; wasEnabled?: boolean }[] = [];
  for (const [index, incoming] of checks.entries()) {
    let check = incoming;
    // Comparing and serialising a large import is real work: let other requests in now and then.
    if (index > 0 && index % YIELD_EVERY === 0) await nextTurn();
    const row = existing.get(check.slug);
    if (!row) {
      const uid = newIds[nextNew++];
      outcomes.push({ slug: check.slug, action: 'create', ...(options.dryRun ? {} : { uid }) });
      // A dry run writes nothing, so it needs no content for the checks it would create.
      if (!options.dryRun) writes.push({ check, content: checkContent(check), uid, replacesLabels: false, keepsLabels: false });
      continue;
    }
    const owner = options.owner;
    if (owner && !owner.takeOver) {
      const current = (JSON.parse(row.labels) as Record<string, string>)[owner.key];
      if (current !== owner.value) {
        outcomes.push({ slug: check.slug, action: 'conflict', uid: row.uid, owner: current ?? null });
        continue;
      }
    }
    if (options.resolver) check = options.resolver.resolve(incoming, row);
    const content = checkContent(check);
    if (sameStoredText(row, content) || sameContent(row, check, content)) {
      outcomes.push({ slug: check.slug, action: 'unchanged', uid: row.uid });
    } else {
      outcomes.push({ slug: check.slug, action: 'update', uid: row.uid });
      const keepsLabels = canonicalJson(JSON.parse(row.labels)) === canonicalJson(check.labels);
      writes.push({ check, content, uid: row.uid, replacesLabels: true, keepsLabels, wasEnabled: Number(row.enabled) === 1 });
    }
  }
  if (options.dryRun || writes.length === 0) return outcomes;

  const at = options.now.toISOString();
  const stored = new Map<string, string>();
  for (const batch of chunks(writes, CHECK_BATCH)) {
    const rows = batch.map(({ content, uid }) => ({ uid, organization_uid: orgUid, ...content, created_at: at, updated_at: at }));
    const returned = await insertRows(db, 'checks', rows)
      .onConflict((oc) =>
        oc.columns(['organization_uid', 'slug']).doUpdateSet((eb) => ({
          name: eb.ref('excluded.name'),
          type: eb.ref('excluded.type'),
          enabled: eb.ref('excluded.enabled'),
          interval_seconds: eb.ref('excluded.interval_seconds'),
          target: eb.ref('excluded.target'),
          config: eb.ref('excluded.config'),
          thresholds: eb.ref('excluded.thresholds'),
          labels: eb.ref('excluded.labels'),
          description: eb.ref('excluded.description'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .returning(['uid', 'slug'])
      .execute();
    for (const { uid, slug } of returned) stored.set(slug, uid);
    await turnBetweenStatements(db);
  }
  // A check created concurrently since the look-up was updated instead: use the uid it has,
  // and replace whatever labels it got.
  const relabeled = writes.flatMap((write) => {
    const uid = stored.get(write.check.slug) ?? write.uid;
    const moved = uid !== write.uid;
    return write.keepsLabels && !moved ? [] : [{ ...write, uid, replacesLabels: write.replacesLabels || moved }];
  });
  await deleteLabels(
    db,
    relabeled.filter((write) => write.replacesLabels).map((write) => write.uid),
  );
  await copyLabels(
    db,
    relabeled.map((write) => write.uid),
  );
  for (const outcome of outcomes) {
    const uid = stored.get(outcome.slug);
    if (uid && outcome.uid !== uid) outcome.uid = uid;
  }
  for (const write of writes) {
    if (write.wasEnabled === undefined || write.wasEnabled === write.check.enabled) continue;
    const check = { uid: stored.get(write.check.slug) ?? write.uid, organizationUid: orgUid, slug: write.check.slug, name: write.check.name };
    await checkSwitched(db, check, write.wasEnabled, write.check.enabled, options.now);
  }
  return outcomes;
}
