import { isScalar, visit, type Document } from 'yaml';

// Gatus substitutes `${VAR}` from its environment before it parses the file, so a placeholder
// may sit where YAML would read it differently (inside a flow mapping, as a number). The text
// is parsed with each placeholder swapped for a plain word, and the word is swapped back in
// every scalar of the syntax tree afterwards; the placeholders stay verbatim.

const PLACEHOLDER = /\$\{[^}"'\n\r]{0,256}\}/g;

/** Whether `text` holds an environment placeholder such as `${API_TOKEN}`. */
export function hasPlaceholder(text: string): boolean {
  return /\$\{[^}"'\n\r]{0,256}\}/.test(text);
}

/** The placeholders in `text`, in order of appearance, without repeats. */
export function placeholdersIn(text: string): string[] {
  return [...new Set(text.match(PLACEHOLDER) ?? [])];
}

/** The source text with placeholders replaced by words, and the way back. */
export interface ProtectedText {
  text: string;
  /** Puts the placeholders back into every string scalar (keys included) of `doc`. */
  restore(doc: Document): void;
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
  return {
    text,
    restore(doc) {
      if (originals.length === 0) return;
      visit(doc, {
        Scalar(_key, node) {
          if (isScalar(node) && typeof node.value === 'string' && node.value.includes(prefix)) {
            node.value = node.value.replace(token, (_word, index: string) => originals[Number(index)] ?? '');
          }
        },
      });
    },
  };
}
