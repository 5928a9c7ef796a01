import { ImportInputError } from './import-input-error.js';

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * The input as text: a string as is, bytes decoded as UTF-8; a leading byte-order mark is
 * removed. Bytes that are not UTF-8 are an ImportInputError naming `expected`.
 */
export function inputText(input: Uint8Array | string, expected: string): string {
  let text: string;
  if (typeof input === 'string') text = input;
  else {
    try {
      text = decoder.decode(input);
    } catch (error) {
      throw new ImportInputError(`expected ${expected}, but the input is not UTF-8 text`, { cause: error });
    }
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Parses JSON text; malformed or truncated JSON is an ImportInputError naming `expected`. */
export function parseJsonText(text: string, expected: string): unknown {
  if (text.trim() === '') throw new ImportInputError(`expected ${expected}, but the input is empty`);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ImportInputError(`expected ${expected}, but the input is not valid JSON (${jsonSyntaxReason(text, error)})`, { cause: error });
  }
}

/**
 * Where JSON text goes wrong, in words that repeat none of it: the parser's own message quotes
 * the start of the input, which may be a pasted token or password.
 */
function jsonSyntaxReason(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : '';
  if (/unexpected end/i.test(message)) return 'it ends too early';
  const stated = /at position (\d+)/.exec(message);
  if (!stated) return 'unexpected text';
  const position = Number(stated[1]);
  const before = text.slice(0, Math.max(0, position));
  const line = before.split('\n').length;
  const column = position - before.lastIndexOf('\n');
  return `unexpected text at line ${line}, column ${column}`;
}

/** Whether `value` is a JSON object (not null, not a list): the catalog's own test. */
export { isPlainObject as isRecord } from '../../checks/validate-check.js';
