import type { Selectable } from 'kysely';
import { MANAGED_LABEL_KEY, type ImportSource } from '../../importers/index.js';
import type { CheckDefinition } from '../../checks/index.js';
import type { ImportFieldChange, ImportFieldConflict } from '../../contract/responses.js';
import { canonicalJson } from '../checks/canonical-json.js';
import { rowToCheck } from '../checks/check-rows.js';
import type { Executor, UpsertOutcome, UpsertResolver } from '../checks/check-store.js';
import { onPostgres, turnBetweenStatements } from '../db/executor.js';
import { insertRows } from '../db/insert-rows.js';
import type { ChecksTable } from '../db/schema.js';
import { definitionChanges, mergeReimport } from './reimport-merge.js';

// The baselines of imports: per check, the definition the last import of its source gave it.
// A re-run merges against them (reimport-merge.ts) and, when applied, records the new ones.

/** Check uids per look-up: one parameter each, well under both engines' limits. */
const LOOKUP_BATCH = 2000;
/**
 * Rows per multi-row write (insertRows): on SQLite 5 parameters each, and a statement holds the
 * event loop while it runs; on PostgreSQL one array per column, and each statement runs the
 * rows' reference check once (migration 024).
 */
const WRITE_BATCH = { sqlite: 500, postgres: 5000 };

interface Baseline {
  source: string;
  /** Canonical JSON of the definition. */
  definition: string;
}

/** What a re-run does to one existing check, by slug, for the response and the digest. */
export interface ReimportDetail {
  changes: ImportFieldChange[];
  conflicts: ImportFieldConflict[];
}

async function readBaselines(db: Executor, uids: readonly string[]): Promise<Map<string, Baseline>> {
  const found = new Map<string, Baseline>();
  for (let i = 0; i < uids.length; i += LOOKUP_BATCH) {
    const rows = await db
      .selectFrom('check_import_baselines')
      .select(['check_uid', 'source', 'definition'])
      .where('check_uid', 'in', uids.slice(i, i + LOOKUP_BATCH))
      .execute();
    for (const row of rows) found.set(row.check_uid, { source: row.source, definition: row.definition });
  }
  return found;
}

/**
 * The resolver of an import of `source`: for a check this source imported before, a field
 * changes only when the source changed it since then (a field changed on both sides is a
 * conflict, kept here unless `overwrite`); a check this source manages without a baseline
 * (imported before baselines were kept) has every difference as a conflict; a check taken over
 * from another owner takes the source's definition. `details` holds each existing check's
 * changes and conflicts; `record` stores the new baselines once the import is applied.
 */
export function reimportResolver(source: ImportSource, overwrite: boolean, canonical: ReadonlyMap<string, string> = new Map()) {
  let baselines = new Map<string, Baseline>();
  const details = new Map<string, ReimportDetail>();
  const resolver: UpsertResolver = {
    async prepare(db: Executor, rows: readonly Selectable<ChecksTable>[]) {
      baselines = await readBaselines(
        db,
        rows.map((row) => row.uid),
      );
    },
    resolve(incoming: CheckDefinition, row: Selectable<ChecksTable>): CheckDefinition {
      const baseline = baselines.get(row.uid);
      const here = stripStored(rowToCheck(row));
      // Nothing changed in the source since the last import: the check stays as it is here.
      if (baseline?.source === source && baseline.definition === (canonical.get(incoming.slug) ?? canonicalJson(incoming))) return here;
      const ownedHere = (JSON.parse(row.labels) as Record<string, string>)[MANAGED_LABEL_KEY] === source;
      let definition: CheckDefinition;
      if (baseline?.source === source || ownedHere) {
        const base = baseline?.source === source ? (JSON.parse(baseline.definition) as CheckDefinition) : undefined;
        const merge = mergeReimport(base, here, incoming, overwrite);
        definition = merge.definition;
        details.set(incoming.slug, { changes: merge.changes, conflicts: merge.conflicts });
      } else {
        // Taken over: this source manages it from now on, with its definition.
        definition = incoming;
        details.set(incoming.slug, { changes: definitionChanges(here, incoming), conflicts: [] });
      }
      return definition;
    },
  };
  return {
    resolver,
    details,
    /**
     * Records the baselines of an applied import: every check it created, updated or found
     * unchanged. `definitions`: the canonical JSON of each incoming check, in the outcomes' order.
     */
    async record(db: Executor, orgUid: string, definitions: readonly string[], outcomes: readonly UpsertOutcome[], now: Date): Promise<void> {
      const at = now.toISOString();
      const rows: { check_uid: string; organization_uid: string; source: string; definition: string; imported_at: string }[] = [];
      for (const [index, outcome] of outcomes.entries()) {
        if (outcome.action === 'conflict' || !outcome.uid) continue;
        const definition = definitions[index];
        const known = baselines.get(outcome.uid);
        if (known?.source === source && known.definition === definition) continue;
        rows.push({ check_uid: outcome.uid, organization_uid: orgUid, source, definition, imported_at: at });
      }
      const size = onPostgres(db) ? WRITE_BATCH.postgres : WRITE_BATCH.sqlite;
      for (let i = 0; i < rows.length; i += size) {
        await insertRows(db, 'check_import_baselines', rows.slice(i, i + size))
          .onConflict((oc) =>
            oc.column('check_uid').doUpdateSet((eb) => ({
              source: eb.ref('excluded.source'),
              definition: eb.ref('excluded.definition'),
              imported_at: eb.ref('excluded.imported_at'),
            })),
          )
          .execute();
        await turnBetweenStatements(db);
      }
    },
  };
}

/** A stored check as a definition: without its identity and timestamps. */
function stripStored(check: ReturnType<typeof rowToCheck>): CheckDefinition {
  const { uid: _uid, createdAt: _created, updatedAt: _updated, ...definition } = check;
  return definition as unknown as CheckDefinition;
}
