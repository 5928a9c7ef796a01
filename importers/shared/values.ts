// Readers for loosely typed source values. Exports encode the same field as a number, a
// numeric string, "" or null depending on the tool's version; these readers accept each
// spelling and return undefined for "absent", so converters state defaults in one place.

/** Text from a string, number or boolean; undefined for anything else (including null). */
export function textValue(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return String(value);
  return undefined;
}

/** A finite number from a number or a numeric string; undefined for "", null and anything else. */
export function numberValue(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && /^\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*$/.test(value)) return Number(value);
  return undefined;
}

/** An integer from a number or a numeric string; undefined when absent or not a whole number. */
export function integerValue(value: unknown): number | undefined {
  const number = numberValue(value);
  return number !== undefined && Number.isInteger(number) ? number : undefined;
}

const TRUE_WORDS = new Set(['true', 'yes', 'on', '1']);
const FALSE_WORDS = new Set(['false', 'no', 'off', '0']);

/**
 * A boolean from true/false, 1/0 or the words true/false, yes/no, on/off (any case);
 * undefined for anything else.
 */
export function flagValue(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value === 'string') {
    const word = value.trim().toLowerCase();
    if (TRUE_WORDS.has(word)) return true;
    if (FALSE_WORDS.has(word)) return false;
  }
  return undefined;
}

/** A short description of a value for warning messages; never the whole of a large value. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  const text = String(value);
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);
}

/**
 * `text` cut to at most `length` code points, so that no character is split. A text of no more
 * UTF-16 units than that has no more code points either, and is returned as it is.
 */
export function cutCodePoints(text: string, length: number): string {
  if (text.length <= length) return text;
  const points = Array.from(text);
  return points.length <= length ? text : points.slice(0, length).join('');
}
