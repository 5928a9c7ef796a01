// Gatus addresses JSON bodies with a small JSONPath (`[BODY].data[0].status`, `[BODY][0].id`);
// the catalog's JSON assertions take JSONata. The path is rewritten segment by segment.

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The JSONata expression for the part of a Gatus path after `[BODY]` (`.data[0].status`
 * gives `data[0].status`, `[0].id` gives `$[0].id`, `` gives `$`), or undefined when the path
 * uses something JSONata cannot name safely.
 */
export function jsonataPath(path: string): string | undefined {
  if (path === '') return '$';
  let expression = '';
  let rest = path;
  while (rest !== '') {
    const index = /^\.?\[(\d+)\]/.exec(rest);
    if (index) {
      expression += `${expression === '' ? '$' : ''}[${index[1]}]`;
      rest = rest.slice(index[0].length);
      continue;
    }
    const name = /^\.([^.[\]]+)/.exec(rest);
    if (!name) return undefined;
    const key = name[1];
    if (key.includes('`')) return undefined;
    const segment = IDENTIFIER.test(key) ? key : `\`${key}\``;
    expression += expression === '' ? segment : `.${segment}`;
    rest = rest.slice(name[0].length);
  }
  return expression;
}

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
