// Gatus' `pat()` globs, as predicates and as JSONata regular expressions.

/** A JSONata regular expression literal matching the whole text against a Gatus `pat()` glob (`*` only). */
export function globRegex(pattern: string): string {
  const body = pattern
    .split('*')
    .map((part) => part.replace(/[\\^$.|?+()[\]{}/]/g, '\\$&'))
    .join('.*');
  return `/^${body}$/`;
}

/** The literal between `*...*` when the glob only asks for a substring; undefined otherwise. */
export function containedText(pattern: string): string | undefined {
  const match = /^\*([^*]+)\*$/s.exec(pattern);
  return match ? match[1] : undefined;
}

/** A glob as a predicate on text (`*` matches any run of characters). */
export function globMatcher(pattern: string): (text: string) => boolean {
  const regex = new RegExp(globRegex(pattern).slice(1, -1), 's');
  return (text) => regex.test(text);
}
