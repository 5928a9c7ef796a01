import { ImportInputError } from '../shared/import-input-error.js';
import { isRecord, parseJsonText } from '../shared/input-text.js';
import { textValue } from '../shared/values.js';

/** What the importer expects, as error messages say it. */
export const EXPECTED =
  'the JSON of the hosted check API 3.1: the GET /checks listing {"checks": [...]}, GET /checks/{id} answers ({"check": {...}} or a list of them), ' +
  'or both as {"checks": [...], "details": [...]}';

/** One check as read: the listing's entry and its detail merged (the detail wins), with where it came from. */
export interface ListedCheck {
  raw: unknown;
  /** Whether a GET /checks/{id} detail was given for it (path, port, encryption and the type settings are only there). */
  detailed: boolean;
  position: string;
}

// A detail is `{"check": {...}}` as the API answers, or the inner object alone.
function detailOf(value: unknown): unknown {
  return isRecord(value) && isRecord(value.check) ? value.check : value;
}

function idOf(value: unknown): string | undefined {
  return isRecord(value) ? textValue(value.id) : undefined;
}

/** What the adapter fetched with a token: the listing's checks and the details it could read. */
export interface HostedCheckData {
  readonly checks: readonly unknown[];
  readonly details: readonly unknown[];
}

/**
 * The checks of the input (JSON text, or what the adapter fetched), in the listing's order
 * followed by details that match no listed check. Throws ImportInputError for anything that
 * is none of the accepted shapes, including the API's error answer (`{"error": {...}}`).
 */
export function readChecks(input: string | HostedCheckData): ListedCheck[] {
  const value: unknown = typeof input === 'string' ? parseJsonText(input, EXPECTED) : input;
  if (isRecord(value) && isRecord(value.error)) {
    const message = textValue(value.error.errormessage) ?? textValue(value.error.statusdesc) ?? 'an error';
    throw new ImportInputError(`expected ${EXPECTED}, but the input is the API's error answer (${message.slice(0, 200)})`);
  }
  let listing: unknown[] = [];
  let details: unknown[] = [];
  if (Array.isArray(value)) details = value.map(detailOf);
  else if (isRecord(value) && isRecord(value.check)) details = [value.check];
  else if (isRecord(value) && (Array.isArray(value.checks) || Array.isArray(value.details))) {
    listing = Array.isArray(value.checks) ? value.checks : [];
    details = Array.isArray(value.details) ? value.details.map(detailOf) : [];
  } else throw new ImportInputError(`expected ${EXPECTED}, but the input has none of \`checks\`, \`check\` or \`details\``);

  const byId = new Map<string, unknown>();
  for (const detail of details) {
    const id = idOf(detail);
    if (id !== undefined) byId.set(id, detail);
  }
  const used = new Set<unknown>();
  const checks: ListedCheck[] = listing.map((entry, index) => {
    const id = idOf(entry);
    const detail = id === undefined ? undefined : byId.get(id);
    if (detail === undefined || !isRecord(entry) || !isRecord(detail)) return { raw: entry, detailed: false, position: `checks[${index}]` };
    used.add(detail);
    return { raw: { ...entry, ...detail }, detailed: true, position: `checks[${index}]` };
  });
  details.forEach((detail, index) => {
    if (!used.has(detail)) checks.push({ raw: detail, detailed: true, position: `details[${index}]` });
  });
  return checks;
}
