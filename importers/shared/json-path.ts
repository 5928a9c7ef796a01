// Sources address JSON bodies with a small JSONPath (`.data[0].status`, `$.data[0].status`,
// `[0].id`); the catalog's JSON assertions take JSONata. The path is rewritten segment by segment.

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The JSONata expression for a JSONPath below the root (`.data[0].status` gives
 * `data[0].status`, `[0].id` gives `$[0].id`, `` gives `$`; a leading `$` is allowed), or
 * undefined when the path uses something JSONata cannot name safely.
 */
export function jsonataPath(path: string): string | undefined {
  let rest = path.startsWith('$') ? path.slice(1) : path;
  if (rest === '') return '$';
  let expression = '';
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
