import type { DNS_ANSWER_OPERATORS } from '../checks/index.js';

/** One of a DNS check's answer conditions, as the probe receives it. */
export interface AnswerCondition {
  join: 'and' | 'or';
  operator: (typeof DNS_ANSWER_OPERATORS)[number];
  value: string;
}

/**
 * The values answer conditions look at, one per answer (TXT: one per string of each record):
 * the address or name itself, the exchange of an MX, the target of an SRV, the primary name
 * server of an SOA, the issuer of a CAA issue tag; CNAME looks at its first answer only.
 */
export function conditionValues(type: string, records: readonly unknown[]): string[] {
  const field = (name: string) => records.map((record) => (record as Record<string, unknown>)[name]);
  const strings = (values: unknown[]) => values.filter((value): value is string => typeof value === 'string');
  switch (type) {
    case 'TXT':
      return strings((records as unknown[][]).flat());
    case 'CNAME':
      return strings(records.slice(0, 1));
    case 'MX':
      return strings(field('exchange'));
    case 'SRV':
      return strings(field('name'));
    case 'SOA':
      return strings(field('nsname').slice(0, 1));
    case 'CAA':
      return strings(field('issue'));
    default:
      return strings([...records]);
  }
}

function meets(value: string, { operator, value: text }: AnswerCondition): boolean {
  switch (operator) {
    case 'equals':
      return value === text;
    case 'not-equals':
      return value !== text;
    case 'contains':
      return value.includes(text);
    case 'not-contains':
      return !value.includes(text);
    case 'starts-with':
      return value.startsWith(text);
    case 'not-starts-with':
      return !value.startsWith(text);
    case 'ends-with':
      return value.endsWith(text);
    case 'not-ends-with':
      return !value.endsWith(text);
  }
}

/** Whether one value meets the conditions, joined left to right by and/or without precedence. */
function meetsAll(value: string, conditions: readonly AnswerCondition[]): boolean {
  let result = meets(value, conditions[0]!);
  for (const condition of conditions.slice(1)) {
    result = condition.join === 'or' ? result || meets(value, condition) : result && meets(value, condition);
  }
  return result;
}

/** Whether at least one of the values meets the conditions. */
export function someAnswerMeets(values: readonly string[], conditions: readonly AnswerCondition[]): boolean {
  return values.some((value) => meetsAll(value, conditions));
}

/** The conditions in words, for a failure message: `contains "v=spf1" and ends-with "all"`. */
export function describeConditions(conditions: readonly AnswerCondition[]): string {
  return conditions.map((condition, i) => `${i === 0 ? '' : `${condition.join} `}${condition.operator} ${JSON.stringify(condition.value)}`).join(' ');
}
