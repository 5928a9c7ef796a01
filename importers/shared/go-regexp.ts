// Source tools written in Go match text with RE2 regular expressions; the catalog looks for a
// keyword. An expression that only spells out text (escapes of punctuation allowed) is that
// text; anchors and anything else have no keyword equivalent.

const META = /[\\+*?()|[\]{}^$]/;

/** What a regular expression says as plain text, and how loosely. */
export interface RegexpLiteral {
  text: string;
  /** A leading `^` or trailing `$` was dropped. */
  anchored: boolean;
  /** An unescaped `.` (any character) was read as a dot, as in `SSH-2.0-`. */
  dotted: boolean;
}

/**
 * The text a regular expression matches when it is plain text (`Could not connect`,
 * `version 1\.2`, `^\+OK`), undefined when it uses anything else (classes, repetition,
 * alternation, flags). A leading `^` or trailing `$` is dropped and reported as `anchored`;
 * an unescaped `.` is read as a dot and reported as `dotted`.
 */
export function regexpLiteral(expression: string): RegexpLiteral | undefined {
  let source = expression;
  let anchored = false;
  if (source.startsWith('^')) {
    source = source.slice(1);
    anchored = true;
  }
  if (source.endsWith('$') && !source.endsWith('\\$')) {
    source = source.slice(0, -1);
    anchored = true;
  }
  let text = '';
  let dotted = false;
  for (let i = 0; i < source.length; i++) {
    const char = source[i];
    if (char === '.') {
      dotted = true;
      text += char;
    } else if (char === '\\') {
      const next = source[i + 1];
      if (next === undefined || /[A-Za-z0-9]/.test(next)) return undefined;
      text += next;
      i++;
    } else if (META.test(char)) return undefined;
    else text += char;
  }
  return text === '' ? undefined : { text, anchored, dotted };
}
