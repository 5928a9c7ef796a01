// Gatus conditions: `<left> <operator> <right>`, spaces around the operator. Either side is a
// placeholder (`[STATUS]`, `[BODY].data[0].id`), a function of one (`len(...)`, `has(...)`),
// a pattern or list on the right (`pat(...)`, `any(...)`), or a literal.

/** The comparison operators of a condition. */
export type Operator = '==' | '!=' | '<' | '<=' | '>' | '>=';

/** One side of a condition. */
export type Operand =
  | { kind: 'placeholder'; name: string; path: string }
  | { kind: 'function'; fn: 'len' | 'has'; name: string; path: string }
  | { kind: 'pattern'; pattern: string }
  | { kind: 'any'; values: string[] }
  | { kind: 'literal'; value: string };

/** A parsed condition; `text` is the condition as written. */
export interface Condition {
  text: string;
  left: Operand;
  operator: Operator;
  right: Operand;
}

// Gatus looks for the operators in this order, so `<=` is never read as `<`.
const OPERATORS: readonly Operator[] = ['==', '!=', '<=', '>=', '<', '>'];
const MIRRORED: Record<Operator, Operator> = { '==': '==', '!=': '!=', '<': '>', '<=': '>=', '>': '<', '>=': '<=' };
const PLACEHOLDER = /^\[([A-Z_]+)\](.*)$/s;
const FUNCTION = /^(len|has|pat|any)\((.*)\)$/s;

function operand(text: string): Operand {
  const fn = FUNCTION.exec(text);
  if (fn) {
    const [, name, inner] = fn;
    if (name === 'pat') return { kind: 'pattern', pattern: inner };
    if (name === 'any') return { kind: 'any', values: inner.split(',').map((value) => value.trim()) };
    const argument = PLACEHOLDER.exec(inner.trim());
    if (argument) return { kind: 'function', fn: name as 'len' | 'has', name: argument[1], path: argument[2] };
    return { kind: 'literal', value: text };
  }
  const placeholder = PLACEHOLDER.exec(text);
  if (placeholder) return { kind: 'placeholder', name: placeholder[1], path: placeholder[2] };
  return { kind: 'literal', value: text };
}

function isSubject(side: Operand): boolean {
  return side.kind === 'placeholder' || side.kind === 'function';
}

/**
 * Parses a condition; undefined when it has no operator surrounded by spaces. A condition
 * written the other way round (`200 == [STATUS]`) is turned so the placeholder is on the left.
 */
export function parseCondition(text: string): Condition | undefined {
  for (const operator of OPERATORS) {
    const at = text.indexOf(` ${operator} `);
    if (at < 0) continue;
    const left = operand(text.slice(0, at).trim());
    const right = operand(text.slice(at + operator.length + 2).trim());
    if (!isSubject(left) && isSubject(right)) return { text, left: right, operator: MIRRORED[operator], right: left };
    return { text, left, operator, right };
  }
  return undefined;
}
