/**
 * What validating the object-valued parts of checks came to (their config and thresholds), kept
 * by the parts' JSON text for one run over many checks: the checks of an import mostly share a
 * few configs and thresholds, and parsing each again is most of a conversion. A part is kept
 * only when it is plain JSON data (so equal text means equal data), short, and among the first
 * REMEMBERED; the answers kept are frozen, since the checks share them.
 */

/** Answers kept per memo. */
const REMEMBERED = 1000;
/** Parts longer than this as JSON are validated each time. */
const LONGEST_KEPT = 4096;

export class ValidationMemo {
  readonly #answers = new Map<string, unknown>();

  /** `validate()`'s answer for `value` as the `part` named (a field, with the check type where it matters), kept from an equal value. */
  answer<T>(part: string, value: unknown, validate: () => T): T {
    // A part left out (thresholds all defaults) is kept as the empty text, which no JSON value writes.
    const text = value === undefined ? '' : isPlainData(value) ? JSON.stringify(value) : undefined;
    if (text === undefined || text.length > LONGEST_KEPT) return validate();
    const key = `${part}\u0000${text}`;
    if (this.#answers.has(key)) return this.#answers.get(key) as T;
    const answer = deepFreeze(validate());
    if (this.#answers.size < REMEMBERED) this.#answers.set(key, answer);
    return answer;
  }
}

/** Whether `value` is what JSON text gives back exactly: plain objects, lists, strings, booleans, null and finite numbers. */
function isPlainData(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0);
  if (typeof value !== 'object') return false;
  if (Array.isArray(value)) {
    // A hole or an undefined item reads back as null.
    for (let i = 0; i < value.length; i++) if (!isPlainData(value[i])) return false;
    return true;
  }
  const prototype = Object.getPrototypeOf(value);
  if ((prototype !== Object.prototype && prototype !== null) || Object.getOwnPropertySymbols(value).length > 0) return false;
  for (const inner of Object.values(value)) if (!isPlainData(inner)) return false;
  return true;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
