import type { DNS_RCODES, CheckTypeName } from '../../checks/index.js';
import type { ItemScope } from '../shared/item-scope.js';
import { statusCodeList } from '../../checks/status-codes.js';
import { textValue } from '../shared/values.js';
import { parseCondition, type Condition, type Operator } from './condition.js';
import { conditionEffect, type Applied } from './condition-rules.js';

const MAX_CONDITIONS = 100;
const MAX_JSON_QUERIES = 20;
/** Sets of [STATUS] conditions whose accepted codes are kept: an export repeats a few sets over many endpoints. */
const REMEMBERED_STATUS_SETS = 1000;
const acceptedCodes = new Map<string, (number | string)[]>();

/** The codes the [STATUS] conditions of `texts` accept together, each an HTTP check's rule from conditionEffect. */
function codesAccepted(texts: readonly string[], rules: readonly ((code: number) => boolean)[]): (number | string)[] {
  // A [STATUS] condition's rule on an HTTP check depends on its text alone (condition-rules.ts statusRule).
  // The texts as a JSON list: a key no two different lists share, whatever characters they hold.
  const key = JSON.stringify(texts);
  let codes = acceptedCodes.get(key);
  if (codes === undefined) {
    codes = statusCodeList((code) => rules.every((accepts) => accepts(code)));
    if (acceptedCodes.size < REMEMBERED_STATUS_SETS) acceptedCodes.set(key, codes);
  }
  return [...codes];
}

/** A keyword the body must (or must not) contain. */
export interface KeywordEffect {
  value: string;
  expect: 'present' | 'absent';
  caseSensitive: boolean;
}

/** A JSON assertion in the catalog's shape. */
export interface JsonQueryEffect {
  expression: string;
  operator: Operator | 'contains';
  expected: string;
  /** `text` where Gatus compares strings: == and != on a value (config/endpoint/condition.go isEqual). */
  compareAs?: 'text';
}

/** What an endpoint's conditions amount to, in the catalog's terms. */
export interface ConditionEffects {
  /** Accepted HTTP statuses; absent when no condition constrains the status. */
  statusCodes?: (number | string)[];
  exitCode?: number;
  /** The slowest acceptable response, from `[RESPONSE_TIME] <` conditions. */
  maxResponseMs?: number;
  keyword?: KeywordEffect;
  jsonQueries: JsonQueryEffect[];
  certificateDays?: number;
  /** From `[DOMAIN_EXPIRATION] >`: the domain check's threshold in days. */
  domainDays?: number;
  /** How many conditions are about something other than the domain's registration. */
  otherConditions: number;
  rcode?: (typeof DNS_RCODES)[number];
  dnsValues: string[];
  invert: boolean;
}

/** How the endpoint is checked, which decides what each condition can become. */
export interface ConditionContext {
  type: CheckTypeName;
  /** Whether the target presents a certificate whose expiry the check can watch. */
  certificates: boolean;
  /** Whether the target names a registered domain whose registration can be watched. */
  domain: boolean;
}

/**
 * Maps the `conditions` list of an endpoint. Each condition with an equivalent changes the
 * check; each without one is an `UNSUPPORTED_SETTING` warning naming `conditions[i]`.
 */
export function mapConditions(raw: unknown, context: ConditionContext, scope: ItemScope): ConditionEffects {
  const effects: ConditionEffects = { jsonQueries: [], dnsValues: [], invert: false, otherConditions: 0 };
  if (raw === undefined || raw === null) return effects;
  if (!Array.isArray(raw)) {
    scope.warn('UNSUPPORTED_SETTING', '`conditions` is not a list and was ignored', 'conditions');
    return effects;
  }
  const statusRules: ((code: number) => boolean)[] = [];
  const statusTexts: string[] = [];
  raw.forEach((entry, index) => {
    const field = `conditions[${index}]`;
    if (index >= MAX_CONDITIONS) {
      if (index === MAX_CONDITIONS) {
        scope.warn('UNSUPPORTED_SETTING', `only the first ${MAX_CONDITIONS} conditions were read`, 'conditions');
      }
      return;
    }
    const text = textValue(entry)?.trim();
    const condition: Condition | undefined = text === undefined ? undefined : parseCondition(text);
    if (!condition) {
      scope.warn('UNSUPPORTED_SETTING', `the condition ${JSON.stringify(text ?? '')} is not "<left> <operator> <right>"; it was not imported`, field);
      return;
    }
    if (!(condition.left.kind === 'placeholder' && condition.left.name === 'DOMAIN_EXPIRATION')) effects.otherConditions++;
    const applied: Applied = conditionEffect(condition, context);
    if (applied.kind === 'unsupported') {
      scope.warn('UNSUPPORTED_SETTING', `the condition "${condition.text}" was not imported: ${applied.reason}`, field);
      return;
    }
    if (applied.kind === 'adjusted') scope.warn('VALUE_ADJUSTED', `the condition "${condition.text}": ${applied.note}`, field);
    const effect = applied.effect;
    switch (effect.kind) {
      case 'none':
        break;
      case 'status':
        statusRules.push(effect.accepts);
        statusTexts.push(condition.text);
        break;
      case 'exit-code':
        if (effects.exitCode !== undefined && effects.exitCode !== effect.code) {
          scope.warn('UNSUPPORTED_SETTING', `the condition "${condition.text}" contradicts an earlier exit code condition; it was not imported`, field);
        } else effects.exitCode = effect.code;
        break;
      case 'response-time':
        effects.maxResponseMs = Math.min(effects.maxResponseMs ?? Infinity, effect.ms);
        break;
      case 'keyword':
        if (effects.keyword || effect.keyword.value.length > 1024) {
          const why = effects.keyword ? 'a check looks for one keyword only' : 'a keyword has at most 1024 characters';
          scope.warn('UNSUPPORTED_SETTING', `the condition "${condition.text}" was not imported: ${why}`, field);
        } else effects.keyword = effect.keyword;
        break;
      case 'json':
        if (effects.jsonQueries.length >= MAX_JSON_QUERIES) {
          scope.warn('UNSUPPORTED_SETTING', `the condition "${condition.text}" was not imported: at most ${MAX_JSON_QUERIES} JSON assertions`, field);
        } else effects.jsonQueries.push(effect.query);
        break;
      case 'certificate':
        effects.certificateDays = Math.max(effects.certificateDays ?? 0, effect.days);
        break;
      case 'domain':
        effects.domainDays = Math.max(effects.domainDays ?? 0, effect.days);
        break;
      case 'rcode':
        effects.rcode = effect.rcode;
        break;
      case 'dns-value':
        effects.dnsValues.push(effect.value);
        break;
      case 'invert':
        effects.invert = true;
        break;
    }
  });
  if (statusRules.length > 0) {
    const codes = codesAccepted(statusTexts, statusRules);
    if (codes.length === 0 || codes.length > 50) {
      scope.warn(
        'UNSUPPORTED_SETTING',
        codes.length === 0
          ? 'together the [STATUS] conditions accept no status code; the default (200-299) is used'
          : 'the [STATUS] conditions accept too scattered a set of codes; the default (200-299) is used',
        'conditions',
      );
    } else effects.statusCodes = codes;
  } else if (context.type === 'http') {
    // Gatus accepts any status when no condition mentions it.
    effects.statusCodes = ['100-599'];
  }
  return effects;
}
