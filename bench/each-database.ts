import { postgresProblem, startBenchDaemon, type BenchDaemon, type BenchDatabaseKind } from './import-setup.js';
import { printTable } from './table.js';

/**
 * Runs `measure` on a fresh daemon on SQLite, then on PostgreSQL when one answers (else the
 * figures and the table say why it was skipped), prints the table of `rows`, and returns the
 * figures: `figures` with each database's result under its kind.
 */
export async function measureOnEachDatabase<R>(options: {
  figures: Record<string, unknown>;
  env?: Record<string, string>;
  measure(bench: BenchDaemon): Promise<R>;
  rows(kind: BenchDatabaseKind, result: R): string[][];
}): Promise<Record<string, unknown>> {
  const { figures } = options;
  const table: string[][] = [];
  for (const kind of ['sqlite', 'postgres'] as BenchDatabaseKind[]) {
    const problem = kind === 'postgres' ? await postgresProblem() : undefined;
    if (problem) {
      figures.postgres = { skipped: problem };
      table.push(['postgres', 'skipped', problem]);
      continue;
    }
    const bench = await startBenchDaemon(kind, options.env);
    try {
      const result = await options.measure(bench);
      figures[kind] = result;
      table.push(...options.rows(kind, result));
    } finally {
      await bench.stop();
    }
  }
  printTable(table);
  return figures;
}
