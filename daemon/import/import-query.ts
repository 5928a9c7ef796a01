import { canonicalSource, describeImportSources, IMPORT_SOURCES, type ImportSource } from '../../importers/index.js';
import { AppError, validationFailed } from '../errors.js';

/** The query of the convert endpoint: which source, and whether only to preview. */
export interface ImportQuery {
  /** The canonical value, also when a tool alias was given. */
  source: ImportSource;
  dryRun: boolean;
  /** `?takeOver=true`: change checks of the same slug that another source manages or a person made. */
  takeOver: boolean;
  /** `?overwrite=true`: on a re-run, take the source's value of a field changed both here and in the source. */
  overwrite: boolean;
  /** `?expect=<digest>`: the preview's digest that the apply must still match. */
  expect?: string;
}

// `?dryRun` alone, `true` or `1` preview; `false` or `0` apply, as does leaving it out. A value
// that is none of these is refused rather than guessed, because guessing wrong would write.
// `?takeOver` and `?overwrite` read the same way.
const FLAG_VALUES: Record<string, boolean> = { '': true, true: true, '1': true, false: false, '0': false };

/** Reads `?source=` (required; values or tool aliases), `?dryRun=`, `?takeOver=`, `?overwrite=` and `?expect=`; 400 VALIDATION_FAILED naming the allowed values. */
export function parseImportQuery(query: URLSearchParams): ImportQuery {
  const issues: { path: string; message: string }[] = [];
  const rawSource = query.get('source');
  const source = rawSource === null ? undefined : canonicalSource(rawSource);
  if (rawSource === null || rawSource.trim() === '') {
    issues.push({ path: 'source', message: `is required; one of ${describeImportSources()}` });
  } else if (!source) {
    issues.push({ path: 'source', message: `"${rawSource.slice(0, 100)}" is not an import source; use one of ${describeImportSources()}` });
  }
  const rawDryRun = query.get('dryRun');
  const dryRun = rawDryRun === null ? false : FLAG_VALUES[rawDryRun.trim().toLowerCase()];
  if (dryRun === undefined) issues.push({ path: 'dryRun', message: 'must be true or false' });
  const rawTakeOver = query.get('takeOver');
  const takeOver = rawTakeOver === null ? false : FLAG_VALUES[rawTakeOver.trim().toLowerCase()];
  if (takeOver === undefined) issues.push({ path: 'takeOver', message: 'must be true or false' });
  const rawOverwrite = query.get('overwrite');
  const overwrite = rawOverwrite === null ? false : FLAG_VALUES[rawOverwrite.trim().toLowerCase()];
  if (overwrite === undefined) issues.push({ path: 'overwrite', message: 'must be true or false' });
  const expect = query.get('expect') ?? undefined;
  if (expect !== undefined && !/^[0-9a-f]{64}$/.test(expect))
    issues.push({ path: 'expect', message: 'must be the digest of a preview (64 hexadecimal digits)' });
  if (issues.length > 0) {
    const error = validationFailed(issues, 'The import query is not valid.');
    // The allowed values as data too, so a client can offer them without parsing the message.
    throw new AppError('VALIDATION_FAILED', error.message, { ...error.details, allowedSources: [...IMPORT_SOURCES] });
  }
  return { source: source!, dryRun: dryRun!, takeOver: takeOver!, overwrite: overwrite!, ...(expect !== undefined ? { expect } : {}) };
}
