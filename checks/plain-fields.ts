import {
  type CommonFields,
  INTERVAL_BOUNDS,
  LABEL_KEY,
  LABEL_VALUE,
  MAX_LABELS,
  NO_CONTROL_CHARACTERS,
  NO_TEXT_CONTROL_CHARACTERS,
  TEXT_BOUNDS,
} from './check-fields.js';
import { SLUG_PATTERN } from './slug.js';

/** What a plain reading answers for a value it leaves to the field's schema. */
export const NOT_PLAIN: unique symbol = Symbol('not plain');

type PlainReading<T> = (value: unknown) => T | typeof NOT_PLAIN;

const optionalText =
  (longest: number, allowed?: RegExp): PlainReading<string | undefined> =>
  (value) => {
    if (value === undefined) return undefined;
    return typeof value === 'string' && value.length <= longest && (!allowed || allowed.test(value)) ? value : NOT_PLAIN;
  };

// Labels differ from check to check (an import's tags), so a memo would keep few of them: they
// are read here. A "__proto__" key is left to the schema, which drops it (validate-check.ts
// reports it).
function plainLabels(value: unknown): CommonFields['labels'] | typeof NOT_PLAIN {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return NOT_PLAIN;
  if (Object.getOwnPropertySymbols(value).length > 0) return NOT_PLAIN;
  const keys = Object.keys(value);
  if (keys.length > MAX_LABELS) return NOT_PLAIN;
  const labels: Record<string, string> = {};
  for (const key of keys) {
    const inner = (value as Record<string, unknown>)[key];
    if (key === '__proto__' || typeof inner !== 'string' || !LABEL_KEY.test(key) || !LABEL_VALUE.test(inner)) return NOT_PLAIN;
    labels[key] = inner;
  }
  return labels;
}

/**
 * For each common field except thresholds (which a memo keeps), the value its schema
 * in check-fields.ts gives back for an input that is plainly valid, found without the schema: a
 * conversion validates every field of thousands of checks, and parsing each with the schema was
 * a third of it. Anything else is NOT_PLAIN, and the schema decides and says what is wrong.
 * Each reading accepts only what its schema accepts, and answers the same value
 * (test/checks/plain-fields.test.ts holds them against the schemas).
 */
export const plainFieldReadings: { [K in Exclude<keyof CommonFields, 'thresholds'>]: PlainReading<CommonFields[K]> } = {
  slug: (value) => (value === undefined || (typeof value === 'string' && SLUG_PATTERN.test(value)) ? value : NOT_PLAIN),
  name: (value) => {
    if (typeof value !== 'string') return NOT_PLAIN;
    const name = value.trim();
    return name.length >= 1 && name.length <= TEXT_BOUNDS.name && NO_CONTROL_CHARACTERS.test(name) ? name : NOT_PLAIN;
  },
  type: (value) => (typeof value === 'string' && value.length >= 1 ? value : NOT_PLAIN),
  enabled: (value) => (value === undefined ? true : typeof value === 'boolean' ? value : NOT_PLAIN),
  intervalSeconds: (value) => {
    if (value === undefined) return INTERVAL_BOUNDS.default;
    return Number.isInteger(value) && (value as number) >= INTERVAL_BOUNDS.min && (value as number) <= INTERVAL_BOUNDS.max ? (value as number) : NOT_PLAIN;
  },
  target: optionalText(TEXT_BOUNDS.target),
  config: (value) => value,
  labels: plainLabels,
  description: optionalText(TEXT_BOUNDS.description, NO_TEXT_CONTROL_CHARACTERS),
};
