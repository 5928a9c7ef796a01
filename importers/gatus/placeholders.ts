// Gatus substitutes `${VAR}` from its environment before it parses the file, so a placeholder
// may sit where YAML would read it differently (inside a flow mapping, as a number). The text
// is parsed with each placeholder swapped for a plain word, and the word is swapped back in
// every string of the parsed value afterwards; the placeholders stay verbatim.

const PLACEHOLDER = /\$\{[^}"'\n\r]{0,256}\}/g;

/** The placeholders in `text`, in order of appearance, without repeats. */
export function placeholdersIn(text: string): string[] {
  return [...new Set(text.match(PLACEHOLDER) ?? [])];
}

/** The source text with placeholders replaced by words, and the way back. */
export interface ProtectedText {
  text: string;
  /**
   * Puts the placeholders back into every string (keys included) of the parsed `value`, in
   * place, and returns it. The value must be free of cycles.
   */
  restore(value: unknown): unknown;
}

/** Swaps each `${...}` placeholder of `source` for a word that YAML reads as a plain string. */
export function protectPlaceholders(source: string): ProtectedText {
  let prefix = 'svcenvplaceholder';
  while (source.includes(prefix)) prefix += 'x';
  const originals: string[] = [];
  const indexOf = new Map<string, number>();
  const text = source.replace(PLACEHOLDER, (placeholder) => {
    let index = indexOf.get(placeholder);
    if (index === undefined) {
      index = originals.length;
      originals.push(placeholder);
      indexOf.set(placeholder, index);
    }
    return `${prefix}${index}z`;
  });
  const token = new RegExp(`${prefix}(\\d+)z`, 'g');
  const restoreText = (word: string) => (word.includes(prefix) ? word.replace(token, (_word, index: string) => originals[Number(index)] ?? '') : word);
  return {
    text,
    restore(value) {
      if (originals.length === 0) return value;
      const done = new Set<object>();
      const restoreIn = (node: unknown): unknown => {
        if (typeof node === 'string') return restoreText(node);
        if (typeof node !== 'object' || node === null || done.has(node)) return node;
        done.add(node);
        if (Array.isArray(node)) {
          for (let i = 0; i < node.length; i++) node[i] = restoreIn(node[i]);
          return node;
        }
        const record = node as Record<string, unknown>;
        const entries = Object.entries(record);
        const renamed = entries.some(([key]) => key.includes(prefix));
        for (const [key] of entries) if (renamed) delete record[key];
        for (const [key, child] of entries) {
          // defineProperty, so that a key such as `__proto__` stays an ordinary key.
          Object.defineProperty(record, renamed ? restoreText(key) : key, { value: restoreIn(child), enumerable: true, writable: true, configurable: true });
        }
        return record;
      };
      return restoreIn(value);
    },
  };
}
