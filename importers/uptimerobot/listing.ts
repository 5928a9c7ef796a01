import { ImportInputError } from '../shared/import-input-error.js';
import { isRecord } from '../shared/input-text.js';
import { integerValue, textValue } from '../shared/values.js';

/** What the importer expects, as error messages say it. */
export const EXPECTED = 'the JSON returned by the UptimeRobot API v2 getMonitors (an object with a `monitors` list) or by GET /v3/monitors';

/** One monitor of the input, with the API version whose field names it uses. */
export interface ListedMonitor {
  raw: unknown;
  version: 2 | 3;
  /** Its position in the input, for items without a name. */
  position: string;
}

/** The monitors of the input, and what the pages say about monitors the input lacks. */
export interface Listing {
  monitors: ListedMonitor[];
  /** Sentences about missing pages, one per page that announces more. */
  missingPages: string[];
}

function failure(page: Record<string, unknown>): ImportInputError {
  const error = isRecord(page.error) ? page.error : {};
  const message = textValue(error.message) ?? textValue(page.message) ?? 'no message';
  const type = textValue(error.type);
  return new ImportInputError(`expected ${EXPECTED}, but the input is the API's error reply: ${message}${type ? ` (${type})` : ''}`);
}

function versionOf(monitor: unknown): 2 | 3 {
  if (!isRecord(monitor)) return 2;
  if ('friendlyName' in monitor || (typeof monitor.type === 'string' && !/^\d+$/.test(monitor.type))) return 3;
  return 2;
}

function readPage(page: Record<string, unknown>, label: string, listing: Listing): void {
  if (textValue(page.stat)?.toLowerCase() === 'fail') throw failure(page);
  if (Array.isArray(page.monitors)) {
    page.monitors.forEach((raw, i) => listing.monitors.push({ raw, version: 2, position: `${label}monitors[${i}]` }));
    const pagination = isRecord(page.pagination) ? page.pagination : {};
    const offset = integerValue(pagination.offset) ?? 0;
    const total = integerValue(pagination.total);
    if (total !== undefined && offset + page.monitors.length < total) {
      listing.missingPages.push(
        `this page holds monitors ${offset + 1} to ${offset + page.monitors.length} of ${total}; ` +
          `fetch the others (offset=${offset + page.monitors.length}, ...) and import all pages together as one JSON list`,
      );
    }
    return;
  }
  if (Array.isArray(page.data)) {
    page.data.forEach((raw, i) => listing.monitors.push({ raw, version: 3, position: `${label}data[${i}]` }));
    const next = textValue(page.nextLink);
    if (next) {
      listing.missingPages.push(`this page has a nextLink (more monitors follow); fetch every page and import them together as one JSON list`);
    }
    return;
  }
  throw new ImportInputError(`expected ${EXPECTED}; the input has no \`monitors\` list`);
}

/**
 * Finds the monitors in a parsed getMonitors reply (v2), a /v3/monitors page, a JSON list of
 * such pages, or a bare list of monitors. An error reply (`stat: "fail"`) and anything else
 * is an ImportInputError.
 */
export function readListing(value: unknown): Listing {
  const listing: Listing = { monitors: [], missingPages: [] };
  if (isRecord(value)) {
    readPage(value, '', listing);
    return listing;
  }
  if (!Array.isArray(value)) throw new ImportInputError(`expected ${EXPECTED}, but the JSON is not an object`);
  const pages = value.length > 0 && value.every((entry) => isRecord(entry) && ('monitors' in entry || 'data' in entry || 'stat' in entry));
  value.forEach((entry, i) => {
    if (pages) readPage(entry as Record<string, unknown>, `[${i}].`, listing);
    else listing.monitors.push({ raw: entry, version: versionOf(entry), position: `[${i}]` });
  });
  if (pages && listing.missingPages.length > 0) {
    // With several pages given, only what is still missing after all of them matters.
    const given = listing.monitors.length;
    const totals = value.map((page) => (isRecord(page) && isRecord(page.pagination) ? integerValue(page.pagination.total) : undefined));
    const total = totals.find((t) => t !== undefined);
    const lastHasNext = isRecord(value[value.length - 1]) && Boolean(textValue((value[value.length - 1] as Record<string, unknown>).nextLink));
    listing.missingPages = [];
    if (total !== undefined && given < total) {
      listing.missingPages.push(`the pages hold ${given} of ${total} monitors; fetch the missing pages and import all of them together`);
    } else if (lastHasNext) {
      listing.missingPages.push('the last page has a nextLink (more monitors follow); fetch every page and import them together');
    }
  }
  return listing;
}
