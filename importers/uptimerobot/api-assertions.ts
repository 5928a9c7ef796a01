import { isRecord } from '../shared/input-text.js';
import type { ItemScope } from '../shared/item-scope.js';
import { jsonataPath } from '../shared/json-path.js';
import { integerValue, textValue } from '../shared/values.js';
import type { JsonQuery } from './monitor-spec.js';

const OPERATORS: Readonly<Record<string, JsonQuery['operator']>> = {
  equals: '==',
  eq: '==',
  notequals: '!=',
  ne: '!=',
  greaterthan: '>',
  gt: '>',
  greaterthanorequals: '>=',
  greaterthanorequal: '>=',
  gte: '>=',
  lessthan: '<',
  lt: '<',
  lessthanorequals: '<=',
  lessthanorequal: '<=',
  lte: '<=',
  contains: 'contains',
};

/** What the assertions of a v3 API monitor become: accepted statuses and JSON assertions. */
export interface AssertionEffects {
  statusCodes?: number[];
  jsonQueries: JsonQuery[];
}

/**
 * Maps `config.apiAssertions` of a v3 API monitor: `status_code` comparisons become accepted
 * statuses, JSONPath properties become JSON assertions. Assertions joined with OR have no
 * equivalent (a check's assertions must all hold) and are left out with a warning.
 */
export function mapApiAssertions(raw: unknown, scope: ItemScope): AssertionEffects {
  const effects: AssertionEffects = { jsonQueries: [] };
  if (!isRecord(raw) || !Array.isArray(raw.checks)) return effects;
  const field = 'config.apiAssertions';
  if (textValue(raw.logic)?.toUpperCase() === 'OR' && raw.checks.length > 1) {
    scope.warn('UNSUPPORTED_SETTING', 'assertions joined with OR have no equivalent (all assertions of a check must hold); they were left out', field);
    return effects;
  }
  raw.checks.forEach((check, index) => {
    const where = `${field}.checks[${index}]`;
    const property = isRecord(check) ? (textValue(check.property)?.trim() ?? '') : '';
    const comparison = isRecord(check) ? (textValue(check.comparison) ?? '') : '';
    const operator = OPERATORS[comparison.toLowerCase().replace(/[-_ ]/g, '')];
    const target = isRecord(check) ? textValue(check.target) : undefined;
    if (!operator || target === undefined) {
      scope.warn('UNSUPPORTED_SETTING', `the assertion ${JSON.stringify(property)} ${comparison || '?'} has no equivalent; it was left out`, where);
      return;
    }
    if (property === 'status_code') {
      const code = integerValue(target);
      if (operator === '==' && code !== undefined && code >= 100 && code <= 599) {
        effects.statusCodes = [code];
        return;
      }
      scope.warn('UNSUPPORTED_SETTING', 'only "status_code equals <code>" has an equivalent among status assertions; left out', where);
      return;
    }
    const expression = jsonataPath(property);
    if (expression === undefined || expression.length > 1024 || target.length > 1024) {
      scope.warn('UNSUPPORTED_SETTING', `the property ${JSON.stringify(property)} cannot be expressed as a JSON assertion; left out`, where);
      return;
    }
    if (effects.jsonQueries.length >= 20) {
      scope.warn('UNSUPPORTED_SETTING', 'at most 20 JSON assertions; left out', where);
      return;
    }
    effects.jsonQueries.push({ expression, operator, expected: target });
  });
  return effects;
}
