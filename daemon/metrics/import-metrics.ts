import type { ImportResponse } from '../../importers/index.js';
import type { Metrics } from './metrics.js';

/** Counts one finished import and its items by outcome in `svc_imports_total` and `svc_import_items_total`. */
export function countImport(
  metrics: Metrics,
  source: string,
  dryRun: boolean,
  response: Pick<ImportResponse, 'created' | 'updated' | 'unchanged' | 'conflicts' | 'skipped'>,
): void {
  metrics.imports.inc({ source, mode: dryRun ? 'preview' : 'apply' });
  if (dryRun) return;
  for (const outcome of ['created', 'updated', 'unchanged', 'conflicts', 'skipped'] as const) {
    if (response[outcome] > 0) metrics.importItems.inc({ source, outcome }, response[outcome]);
  }
}
