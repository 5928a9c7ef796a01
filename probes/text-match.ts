/** The catalog's keyword assertion, as the probes receive it (defaults filled). */
export interface Keyword {
  value: string;
  expect: 'present' | 'absent';
  caseSensitive: boolean;
}

const QUOTED_MAX = 40;

/** The keyword as a message shows it: quoted, and cut when long. */
function quoted(value: string): string {
  return JSON.stringify(value.length > QUOTED_MAX ? `${value.slice(0, QUOTED_MAX - 1)}…` : value);
}

/**
 * Why `text` fails the keyword assertion (`keyword "ok" not found in the body`), or undefined
 * when it holds. `where` names what was searched, for the message.
 */
export function keywordFailure(text: string, keyword: Keyword | undefined, where: string): string | undefined {
  if (!keyword) return undefined;
  const found = keyword.caseSensitive ? text.includes(keyword.value) : text.toLowerCase().includes(keyword.value.toLowerCase());
  return keywordVerdict(found, keyword, where);
}

/** Why the keyword assertion fails given whether the keyword was `found`, or undefined when it holds. */
export function keywordVerdict(found: boolean, keyword: Keyword, where: string): string | undefined {
  if (keyword.expect === 'present' && !found) return `keyword ${quoted(keyword.value)} not found in the ${where}`;
  if (keyword.expect === 'absent' && found) return `keyword ${quoted(keyword.value)} found in the ${where}`;
  return undefined;
}
