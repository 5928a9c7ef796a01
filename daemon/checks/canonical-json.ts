/**
 * JSON with object keys sorted, so two equal documents compare equal whatever their key order:
 * `JSON.stringify(value)` with each object's keys in code-unit order (array-index keys first,
 * in numeric order, as JavaScript enumerates them). Imports compare and record every check this
 * way, so plain data (what JSON text and the validators give) is written out directly; anything
 * else takes the general path, with the same result.
 */
export function canonicalJson(value: unknown): string {
  const written = writePlain(value, { unfrozen: 0 });
  return written === NOT_PLAIN ? generalCanonicalJson(value) : (written as string);
}

/** The general path: any value JSON.stringify takes (toJSON, boxed values, class instances). */
export function generalCanonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

const NOT_PLAIN = Symbol('not plain data');

/**
 * The text of each deeply frozen object or list written so far. Frozen plain data (data
 * properties only, as JSON text and the validators give) cannot change, and the checks of an
 * import share the frozen parts their validation gave (checks/validation-memo.ts): each shared
 * part is written out once, not once per check.
 */
const frozenTexts = new WeakMap<object, string>();
/** How many objects and lists that were not frozen one call has written: a frozen one is remembered only when none of its own was. */
interface WriteCount {
  unfrozen: number;
}

/** `value` as canonical JSON; undefined where JSON.stringify leaves a value out; NOT_PLAIN for what is not plain data. */
function writePlain(value: unknown, count: WriteCount): string | undefined | typeof NOT_PLAIN {
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
      return JSON.stringify(value);
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    case 'object':
      break;
    default:
      return NOT_PLAIN;
  }
  if (value === null) return 'null';
  const frozen = Object.isFrozen(value);
  if (frozen) {
    const known = frozenTexts.get(value);
    if (known !== undefined) return known;
  } else count.unfrozen++;
  const unfrozenBefore = count.unfrozen;
  const text = Array.isArray(value) ? writeList(value, count) : writeRecord(value, count);
  if (frozen && text !== NOT_PLAIN && count.unfrozen === unfrozenBefore) frozenTexts.set(value, text);
  return text;
}

/** A list as canonical JSON: items JSON leaves out are written as null. */
function writeList(value: unknown[], count: WriteCount): string | typeof NOT_PLAIN {
  if (Object.getPrototypeOf(value) !== Array.prototype) return NOT_PLAIN;
  let text = '[';
  for (let i = 0; i < value.length; i++) {
    const item = writePlain(value[i], count);
    if (item === NOT_PLAIN) return NOT_PLAIN;
    text += (i === 0 ? '' : ',') + (item ?? 'null');
  }
  return `${text}]`;
}

/** An object as canonical JSON, its keys sorted; NOT_PLAIN for anything but a plain object (a class instance, a `toJSON`). */
function writeRecord(value: object, count: WriteCount): string | typeof NOT_PLAIN {
  const prototype = Object.getPrototypeOf(value);
  if ((prototype !== Object.prototype && prototype !== null) || typeof (value as { toJSON?: unknown }).toJSON === 'function') return NOT_PLAIN;
  const record = value as Record<string, unknown>;
  let text = '{';
  let first = true;
  for (const key of sortedKeys(record)) {
    const item = writePlain(record[key], count);
    if (item === NOT_PLAIN) return NOT_PLAIN;
    if (item === undefined) continue;
    text += `${first ? '' : ','}${JSON.stringify(key)}:${item}`;
    first = false;
  }
  return `${text}}`;
}

/** The enumerable own keys in the order the general path writes them: array indexes ascending, then the rest in code-unit order. */
function sortedKeys(record: Record<string, unknown>): string[] {
  const keys = Object.keys(record);
  // Object.keys lists array indexes first, ascending; only the rest needs sorting.
  let indexes = 0;
  while (indexes < keys.length && isArrayIndex(keys[indexes])) indexes++;
  if (keys.length - indexes < 2) return keys;
  const rest = keys.slice(indexes).sort();
  return indexes === 0 ? rest : [...keys.slice(0, indexes), ...rest];
}

function isArrayIndex(key: string): boolean {
  const n = Number(key);
  return n >>> 0 === n && n !== 4294967295 && String(n) === key;
}
