import type { COMPARISON_OPERATORS } from '../checks/index.js';
import { holds } from '../checks/ordering.js';

/** One of the catalog's comparison operators. */
export type ComparisonOperator = (typeof COMPARISON_OPERATORS)[number];

const NUMBER = /^\s*-?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?\s*$/i;

/** A value as text: strings as they are, everything else as JSON. */
export function asText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
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

// A number written as JSONata's $number reads it: decimal digits with an optional fraction and
// exponent, or a 0x / 0o / 0b literal; no spaces, no leading "+" or ".".
const STRICT_NUMBER = /^-?[0-9]+(\.[0-9]+)?([Ee][-+]?[0-9]+)?$|^0[xX][0-9A-Fa-f]+$|^0[oO][0-7]+$|^0[bB][01]+$/;

function strictNumber(text: string): number | undefined {
  if (!STRICT_NUMBER.test(text)) return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

/**
 * The `text` way of comparing (a JSON assertion's `compareAs: text`): `==`, `!=` and `contains`
 * compare the text as it is ("2.10" is not "2.1"); `<`, `<=`, `>`, `>=` compare numbers and do
 * not hold when either side is not a number.
 */
export function compareAsText(actual: unknown, operator: ComparisonOperator, expected: string): boolean {
  const text = asText(actual);
  switch (operator) {
    case '==':
      return text === expected;
    case '!=':
      return text !== expected;
    case 'contains':
      return text.includes(expected);
    default: {
      const left = typeof actual === 'boolean' ? undefined : strictNumber(text);
      const right = strictNumber(expected);
      return left !== undefined && right !== undefined && holds(left, operator, right);
    }
  }
}
