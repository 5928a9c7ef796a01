import { DNS_RCODES, holds, type CheckTypeName } from '../../checks/index.js';
import type { Condition, Operand, Operator } from './condition.js';
import type { ConditionContext, JsonQueryEffect, KeywordEffect } from './condition-effects.js';
import { parseGoDuration } from './go-duration.js';
import { jsonataPath } from '../shared/json-path.js';
import { containedText, globMatcher, globRegex } from './glob.js';

/** What one condition does to the check. */
export type Effect =
  | { kind: 'none' }
  | { kind: 'status'; accepts: (code: number) => boolean }
  | { kind: 'exit-code'; code: number }
  | { kind: 'response-time'; ms: number }
  | { kind: 'keyword'; keyword: KeywordEffect }
  | { kind: 'json'; query: JsonQueryEffect }
  | { kind: 'certificate'; days: number }
  | { kind: 'domain'; days: number }
  | { kind: 'rcode'; rcode: (typeof DNS_RCODES)[number] }
  | { kind: 'dns-value'; value: string }
  | { kind: 'invert' };

/** The outcome of mapping one condition: its effect (possibly with a note on an adjustment), or why it has none. */
export type Applied = { kind: 'ok'; effect: Effect } | { kind: 'adjusted'; effect: Effect; note: string } | { kind: 'unsupported'; reason: string };

const KEYWORD_TYPES: ReadonlySet<CheckTypeName> = new Set(['http', 'tcp', 'udp', 'websocket', 'grpc']);
const DAY_MS = 86_400_000;
const MAX_TEXT = 1024;

const ok = (effect: Effect): Applied => ({ kind: 'ok', effect });
const unsupported = (reason: string): Applied => ({ kind: 'unsupported', reason });

function integer(operand: Operand): number | undefined {
  return operand.kind === 'literal' && /^-?\d{1,9}$/.test(operand.value) ? Number(operand.value) : undefined;
}

function statusRule(operator: Operator, right: Operand): Applied {
  const equality = operator === '==' || operator === '!=';
  const negate = operator === '!=';
  if (right.kind === 'literal') {
    const code = integer(right);
    if (code === undefined) return unsupported(`${JSON.stringify(right.value)} is not a status code`);
    return ok({ kind: 'status', accepts: (status) => holds(status, operator, code) });
  }
  if (right.kind === 'any' && equality) {
    const codes = right.values.map((value) => integer({ kind: 'literal', value }));
    if (codes.some((code) => code === undefined)) return unsupported('any() must list status codes');
    return ok({ kind: 'status', accepts: (status) => codes.includes(status) !== negate });
  }
  if (right.kind === 'pattern' && equality) {
    const matches = globMatcher(right.pattern);
    return ok({ kind: 'status', accepts: (status) => matches(String(status)) !== negate });
  }
  return unsupported('the status can only be compared with codes, any() or pat()');
}

function statusCondition(condition: Condition, type: CheckTypeName): Applied {
  if (type === 'http') return statusRule(condition.operator, condition.right);
  if (type === 'ssh') {
    const code = integer(condition.right);
    if (condition.operator === '==' && code !== undefined && code >= 0 && code <= 255) {
      return ok({ kind: 'exit-code', code });
    }
    return unsupported('only "[STATUS] == <exit code>" has an equivalent on an SSH check');
  }
  return unsupported(`[STATUS] has no equivalent on a ${type} check`);
}

function responseTimeCondition({ operator, right }: Condition): Applied {
  const ms = integer(right);
  if ((operator === '<' || operator === '<=') && ms !== undefined && ms > 0) {
    return ok({ kind: 'response-time', ms });
  }
  return unsupported('only an upper bound ([RESPONSE_TIME] < N) has an equivalent, the timeout');
}

const JSONATA_OPERATOR: Record<Operator, string> = { '==': '=', '!=': '!=', '<': '<', '<=': '<=', '>': '>', '>=': '>=' };

function jsonQuery(expression: string, operator: JsonQueryEffect['operator'], expected: string, compareAs?: 'text'): Applied {
  if (expression.length > MAX_TEXT || expected.length > MAX_TEXT) {
    return unsupported(`the expression or value is longer than ${MAX_TEXT} characters`);
  }
  return ok({ kind: 'json', query: { expression, operator, expected, ...(compareAs ? { compareAs } : {}) } });
}

function bodyPathCondition({ left, operator, right }: Condition): Applied {
  const path = left.kind === 'placeholder' ? left.path : '';
  const expression = jsonataPath(path);
  if (expression === undefined) return unsupported(`the JSON path "${path}" cannot be expressed`);
  const equality = operator === '==' || operator === '!=';
  const truth = operator === '==' ? 'true' : 'false';
  switch (right.kind) {
    case 'literal':
      // Gatus compares == and != as text, unless both sides are whole numbers ("2.10" is not
      // 2.1: config/endpoint/condition.go isEqual); its JSON values are written with Go's %v.
      return jsonQuery(expression, operator, right.value, equality && !/^-?\d+$/.test(right.value) ? 'text' : undefined);
    case 'pattern': {
      if (!equality) return unsupported('pat() works only with == and !=');
      const text = containedText(right.pattern);
      if (text !== undefined && operator === '==') return jsonQuery(expression, 'contains', text);
      return jsonQuery(`$contains($string(${expression}), ${globRegex(right.pattern)})`, '==', truth);
    }
    case 'any': {
      if (!equality) return unsupported('any() works only with == and !=');
      const list = right.values.map((value) => JSON.stringify(value)).join(', ');
      return jsonQuery(`$string(${expression}) in [${list}]`, '==', truth);
    }
    case 'placeholder': {
      const other = right.name === 'BODY' ? jsonataPath(right.path) : undefined;
      if (other === undefined) return unsupported('the body can only be compared with values or other body paths');
      return jsonQuery(`(${expression}) ${JSONATA_OPERATOR[operator]} (${other})`, '==', 'true');
    }
    default:
      return unsupported('the right-hand side has no equivalent');
  }
}

function bodyCondition(condition: Condition, type: CheckTypeName): Applied {
  const { left, operator, right } = condition;
  const path = left.kind === 'placeholder' ? left.path : '';
  if (type === 'grpc' && path === '.status' && operator === '==' && right.kind === 'literal' && right.value === 'SERVING') {
    return ok({ kind: 'none' });
  }
  if (path !== '') {
    if (type !== 'http') return unsupported(`JSON assertions exist only on HTTP checks, not on ${type} checks`);
    return bodyPathCondition(condition);
  }
  if (type === 'dns') {
    if (operator === '==' && right.kind === 'literal') return ok({ kind: 'dns-value', value: right.value });
    return unsupported('only "[BODY] == <answer>" has an equivalent on a DNS check');
  }
  if (KEYWORD_TYPES.has(type) && right.kind === 'pattern' && (operator === '==' || operator === '!=')) {
    if (right.pattern === '*' && operator === '==') return ok({ kind: 'none' });
    const text = containedText(right.pattern);
    if (text !== undefined) {
      const expect = operator === '==' ? 'present' : 'absent';
      return ok({ kind: 'keyword', keyword: { value: text, expect, caseSensitive: true } });
    }
  }
  if (KEYWORD_TYPES.has(type) && right.kind === 'literal' && operator === '==' && right.value !== '') {
    // Equality of the whole body has no equivalent; containing the text is the closest check
    // that still works for plain-text bodies such as "OK".
    return {
      kind: 'adjusted',
      effect: { kind: 'keyword', keyword: { value: right.value, expect: 'present', caseSensitive: true } },
      note: 'the body must now contain this text rather than be exactly equal to it',
    };
  }
  return unsupported('only pat(*text*) or a literal on the whole body has an equivalent (a keyword)');
}

function functionCondition(condition: Condition, type: CheckTypeName): Applied {
  const { left, operator, right } = condition;
  if (left.kind !== 'function' || left.name !== 'BODY' || type !== 'http') {
    return unsupported('len() and has() have an equivalent only on the body of an HTTP check');
  }
  const expression = jsonataPath(left.path);
  if (expression === undefined) return unsupported(`the JSON path "${left.path}" cannot be expressed`);
  if (left.fn === 'len') {
    const count = integer(right);
    if (count === undefined) return unsupported('len() must be compared with a number');
    return jsonQuery(`$type(${expression}) = "array" ? $count(${expression}) : $length($string(${expression}))`, operator, String(count));
  }
  const flag = right.kind === 'literal' && (right.value === 'true' || right.value === 'false') ? right.value === 'true' : undefined;
  if (flag === undefined || (operator !== '==' && operator !== '!=')) {
    return unsupported('has() must be compared with true or false using == or !=');
  }
  return jsonQuery(`$exists(${expression})`, '==', String(flag === (operator === '==')));
}

/** A lower bound on a remaining time ("> 48h", "> 720h") as whole days, for an expiry threshold. */
function expiryThreshold({ operator, right }: Condition, kind: 'certificate' | 'domain', what: string): Applied {
  const text = right.kind === 'literal' ? right.value : '';
  const ms = /^\d+$/.test(text) ? Number(text) : parseGoDuration(text);
  if ((operator !== '>' && operator !== '>=') || ms === undefined) {
    return unsupported(`only a lower bound such as "> 48h" has an equivalent, the ${what} expiry threshold`);
  }
  const exact = ms / DAY_MS;
  const days = Math.min(365, Math.max(1, Math.ceil(exact)));
  const effect: Effect = { kind, days };
  if (days === exact) return ok(effect);
  return { kind: 'adjusted', effect, note: `the threshold is counted in whole days (1 to 365) and became ${days} day(s)` };
}

function certificateCondition(condition: Condition, context: ConditionContext): Applied {
  if (!context.certificates) return unsupported(`this ${context.type} target has no TLS certificate to watch`);
  return expiryThreshold(condition, 'certificate', 'certificate');
}

function domainCondition(condition: Condition, context: ConditionContext): Applied {
  if (!context.domain) return unsupported('the endpoint has no registered domain name whose registration can be watched');
  return expiryThreshold(condition, 'domain', 'domain registration');
}

function connectedCondition({ operator, right }: Condition): Applied {
  const value = right.kind === 'literal' ? right.value : '';
  if ((value !== 'true' && value !== 'false') || (operator !== '==' && operator !== '!=')) {
    return unsupported('[CONNECTED] must be compared with true or false');
  }
  const expectsConnected = (value === 'true') === (operator === '==');
  return ok(expectsConnected ? { kind: 'none' } : { kind: 'invert' });
}

function rcodeCondition({ operator, right }: Condition, type: CheckTypeName): Applied {
  const rcode = DNS_RCODES.find((code) => right.kind === 'literal' && code === right.value.toUpperCase());
  if (type !== 'dns' || operator !== '==' || rcode === undefined) {
    return unsupported(`only "[DNS_RCODE] == <${DNS_RCODES.join('|')}>" on a DNS check has an equivalent`);
  }
  return ok({ kind: 'rcode', rcode });
}

/** What `condition` does to a check of the context's type. */
export function conditionEffect(condition: Condition, context: ConditionContext): Applied {
  const { left } = condition;
  if (left.kind === 'function') return functionCondition(condition, context.type);
  if (left.kind !== 'placeholder') return unsupported('neither side is a placeholder such as [STATUS] or [BODY]');
  switch (left.name) {
    case 'STATUS':
      return left.path === '' ? statusCondition(condition, context.type) : unsupported('[STATUS] has no path');
    case 'RESPONSE_TIME':
      return responseTimeCondition(condition);
    case 'BODY':
      return bodyCondition(condition, context.type);
    case 'CERTIFICATE_EXPIRATION':
      return certificateCondition(condition, context);
    case 'CONNECTED':
      return connectedCondition(condition);
    case 'DNS_RCODE':
      return rcodeCondition(condition, context.type);
    case 'DOMAIN_EXPIRATION':
      return domainCondition(condition, context);
    case 'IP':
      return unsupported('the resolved IP address is not checked');
    case 'CONTEXT':
      return unsupported('suite context values exist only inside Gatus suites');
    default:
      return unsupported(`[${left.name}] is not a known placeholder`);
  }
}
