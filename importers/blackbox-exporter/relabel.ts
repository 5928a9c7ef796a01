import { isRecord } from '../shared/input-text.js';
import type { ItemScope } from '../shared/item-scope.js';
import { describeValue, textValue } from '../shared/values.js';

// Prometheus' relabelling, as it runs on a scrape target before the scrape: the probing setup
// copies `__address__` to `__param_target` (the exporter's `target` query parameter) and to
// `instance`, then points `__address__` at the exporter. Only what decides the probe is
// computed here; the actions that need hashing (hashmod) are reported.

/** A target's labels while relabelling; `__`-prefixed ones are Prometheus' own. */
export type Labels = Map<string, string>;

const ACTIONS = new Set(['replace', 'keep', 'drop', 'keepequal', 'dropequal', 'lowercase', 'uppercase', 'labelmap', 'labeldrop', 'labelkeep']);

interface Rule {
  action: string;
  sourceLabels: string[];
  separator: string;
  regex: RegExp;
  targetLabel: string;
  replacement: string;
}

// Go's `${1}` and `$name` in a replacement; JavaScript's String.replace reads `$1` and `$<name>`.
function jsReplacement(replacement: string): string {
  return replacement
    .replace(/\$\$/g, '\u0000')
    .replace(/\$\{(\d+)\}/g, '$$$1')
    .replace(/\$\{([A-Za-z_]\w*)\}/g, '$$<$1>')
    .replace(/\$([A-Za-z_]\w*)/g, '$$<$1>')
    .replace(/\u0000/g, '$$$$');
}

function readRule(raw: unknown, index: number, scope: ItemScope, field: string): Rule | undefined {
  const where = `${field}[${index}]`;
  if (!isRecord(raw)) {
    scope.warn('UNSUPPORTED_SETTING', `the relabel rule is ${describeValue(raw)}, not a mapping; ignored`, where);
    return undefined;
  }
  const action = (textValue(raw.action) ?? 'replace').toLowerCase();
  if (!ACTIONS.has(action)) {
    scope.warn(
      'UNSUPPORTED_SETTING',
      `the relabel action ${JSON.stringify(action)} is not applied on import; targets are read as if it were absent`,
      `${where}.action`,
    );
    return undefined;
  }
  const sourceLabels = Array.isArray(raw.source_labels) ? raw.source_labels.map((label) => textValue(label) ?? '') : [];
  let regex: RegExp;
  try {
    regex = new RegExp(`^(?:${textValue(raw.regex) ?? '(.*)'})$`, 's');
  } catch {
    scope.warn('UNSUPPORTED_SETTING', `the relabel regex ${describeValue(raw.regex)} cannot be read; the rule was ignored`, `${where}.regex`);
    return undefined;
  }
  return {
    action,
    sourceLabels,
    separator: textValue(raw.separator) ?? ';',
    regex,
    targetLabel: textValue(raw.target_label) ?? '',
    replacement: jsReplacement(textValue(raw.replacement) ?? '$1'),
  };
}

/** Applies one rule; false when the target is dropped. */
function apply(rule: Rule, labels: Labels): boolean {
  const value = rule.sourceLabels.map((name) => labels.get(name) ?? '').join(rule.separator);
  switch (rule.action) {
    case 'replace': {
      if (!rule.regex.test(value)) return true;
      const target = value.replace(rule.regex, jsReplacement(rule.targetLabel));
      const result = value.replace(rule.regex, rule.replacement);
      if (target === '') return true;
      if (result === '') labels.delete(target);
      else labels.set(target, result);
      return true;
    }
    case 'keep':
      return rule.regex.test(value);
    case 'drop':
      return !rule.regex.test(value);
    case 'keepequal':
      return value === (labels.get(rule.targetLabel) ?? '');
    case 'dropequal':
      return value !== (labels.get(rule.targetLabel) ?? '');
    case 'lowercase':
      labels.set(rule.targetLabel, value.toLowerCase());
      return true;
    case 'uppercase':
      labels.set(rule.targetLabel, value.toUpperCase());
      return true;
    case 'labelmap':
      for (const [name, labelValue] of [...labels]) {
        if (rule.regex.test(name)) labels.set(name.replace(rule.regex, rule.replacement), labelValue);
      }
      return true;
    case 'labeldrop':
      for (const name of [...labels.keys()]) if (rule.regex.test(name)) labels.delete(name);
      return true;
    case 'labelkeep':
      for (const name of [...labels.keys()]) if (!rule.regex.test(name)) labels.delete(name);
      return true;
    default:
      return true;
  }
}

/** The rules of `relabel_configs`, read once per job. */
export function readRelabelRules(raw: unknown, scope: ItemScope, field: string): Rule[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    scope.warn('UNSUPPORTED_SETTING', `${field} is not a list; ignored`, field);
    return [];
  }
  return raw.flatMap((rule, index) => readRule(rule, index, scope, field) ?? []);
}

/** Runs the rules over a target's labels in order; undefined when a rule drops the target. */
export function relabel(rules: readonly Rule[], labels: Labels): Labels | undefined {
  const out = new Map(labels);
  for (const rule of rules) {
    if (!apply(rule, out)) return undefined;
  }
  return out;
}

export type { Rule as RelabelRule };
