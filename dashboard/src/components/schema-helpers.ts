/** Helpers of the schema-generated forms: ids, labels, problems by path, and text to values. */
import type { JsonSchema } from '../api/types';

/** Field problems by dotted path, as the API lists them. */
export type Issues = Map<string, string[]>;

export const idOf = (path: string[]) => path.map((p) => p.replace(/[^A-Za-z0-9_-]/g, '_')).join('-');
export const dotted = (path: string[]) => path.join('.');

const ACRONYMS: Record<string, string> = {
  json: 'JSON',
  tls: 'TLS',
  url: 'URL',
  http: 'HTTP',
  dns: 'DNS',
  ip: 'IP',
  tcp: 'TCP',
  udp: 'UDP',
  sql: 'SQL',
  snmp: 'SNMP',
  id: 'ID',
  ssl: 'SSL',
};

/** `expectedStatusCodes` → "Expected status codes", `ignoreTlsErrors` → "Ignore TLS errors". */
export function humanize(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase()
    .split(' ')
    .map((word) => ACRONYMS[word] ?? word)
    .join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** "JSON queries" → "JSON query", for the add and remove buttons of a list. */
export const singular = (words: string) => words.replace(/ies$/, 'y').replace(/([^s])s$/, '$1');

/** Problems at exactly this path. */
export const exact = (issues: Issues, path: string[]) => issues.get(dotted(path));

/** Problems at this path or inside it (for controls that edit a whole list or map as text). */
export function within(issues: Issues, path: string[]): string[] | undefined {
  const prefix = dotted(path);
  const found: string[] = [];
  for (const [key, messages] of issues) {
    if (key === prefix) found.push(...messages);
    else if (key.startsWith(`${prefix}.`)) found.push(...messages.map((m) => `${key.slice(prefix.length + 1)}: ${m}`));
  }
  return found.length ? found : undefined;
}

export function typesOf(schema: JsonSchema): string[] {
  if (schema.anyOf ?? schema.oneOf) return (schema.anyOf ?? schema.oneOf)!.flatMap(typesOf);
  if (Array.isArray(schema.type)) return schema.type;
  return schema.type ? [schema.type] : [];
}

export const isScalarSchema = (schema: JsonSchema) => {
  const types = typesOf(schema);
  return types.length > 0 && types.every((t) => ['string', 'integer', 'number', 'boolean'].includes(t)) && !schema.enum;
};

/** Text to a scalar the schema accepts: a number when it allows one and the text is one. */
export function parseScalar(text: string, schema: JsonSchema): unknown {
  const types = typesOf(schema);
  const trimmed = text.trim();
  if ((types.includes('integer') || types.includes('number')) && trimmed !== '' && !Number.isNaN(Number(trimmed))) {
    if (types.includes('number') || /^-?\d+$/.test(trimmed)) return Number(trimmed);
  }
  if (types.includes('boolean') && (trimmed === 'true' || trimmed === 'false') && !types.includes('string')) return trimmed === 'true';
  if (!types.includes('string') && types.length > 0 && trimmed !== '') return trimmed;
  return text;
}

export const scalarText = (value: unknown) => (value === undefined || value === null ? '' : String(value));
