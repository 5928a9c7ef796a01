import { holds, type COMPARISON_OPERATORS } from '../checks/index.js';

/** One of the catalog's comparison operators. */
export type ComparisonOperator = (typeof COMPARISON_OPERATORS)[number];

const NUMBER = /^\s*-?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?\s*$/i;

/** A value as text: strings as they are, everything else as JSON. */
export function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
}

/**
 * Compares an extracted value with the expected text as the catalog says: numerically when both
 * sides are numbers, as text otherwise; `contains` looks for the text (or, in an array, for an
 * element equal to it).
 */
export function compare(actual: unknown, operator: ComparisonOperator, expected: string): boolean {
  if (operator === 'contains') {
    if (Array.isArray(actual)) return actual.some((item) => asText(item) === expected);
    return asText(actual).includes(expected);
  }
  const text = asText(actual);
  const numeric = NUMBER.test(text) && NUMBER.test(expected);
  return numeric ? holds(Number(text), operator, Number(expected)) : holds(text, operator, expected);
}
