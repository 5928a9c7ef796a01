import { type Interpolation, markup, type Markup } from '../markup.js';

/**
 * The small, safe subset of Markdown a status-page update's body may use: paragraphs (blank
 * lines), line breaks (a single newline), **bold**, *italic*, `code`, [links](https://...) with
 * http and https addresses only, and bullet lists (lines starting with `- `, `* ` or `+ `). A
 * backslash before punctuation keeps it literal. Everything else is text: every character of the
 * source reaches the output through the escaping `markup` template, so no tag, attribute or
 * script can be written, whatever the source holds. Pure, and linear in the length of the source.
 */
export function renderMarkdownSubset(source: string): Markup {
  const blocks: Interpolation[] = [];
  let paragraph: string[] = [];
  let items: string[][] = [];
  const close = () => {
    if (paragraph.length) blocks.push(markup`<p>${lineBreaks(paragraph)}</p>\n`);
    if (items.length) blocks.push(markup`<ul>${items.map((item) => markup`<li>${lineBreaks(item)}</li>`)}</ul>\n`);
    paragraph = [];
    items = [];
  };
  for (const line of source.replace(/\r\n?/g, '\n').split('\n')) {
    const bullet = BULLET.exec(line);
    if (line.trim() === '') close();
    else if (bullet) {
      if (paragraph.length) close();
      items.push([bullet[1]]);
    } else if (items.length && /^\s/.test(line)) items.at(-1)!.push(line.trim());
    else {
      if (items.length) close();
      paragraph.push(line.trim());
    }
  }
  close();
  return markup`${blocks}`;
}

const BULLET = /^ {0,3}[-*+][ \t]+(.*)$/;

/** Backslash escapes: the ASCII punctuation Markdown knows. */
const ESCAPABLE = /[!-/:-@[-`{-~]/;

/** `[text](url)` at the sticky position: bounded, so a line of unmatched brackets stays linear. */
const LINK = /\[([^\]\n]{1,500})\]\(([^\s()<>]{1,2000})\)/y;

function lineBreaks(lines: string[]): Markup {
  return markup`${lines.map((line, index) => (index === 0 ? inline(line) : markup`<br>\n${inline(line)}`))}`;
}

/** The address of a link when it is an absolute http or https URL; undefined for anything else (javascript:, data:, relative). */
export function safeLinkTarget(target: string): string | undefined {
  if (!/^https?:\/\//i.test(target)) return undefined;
  try {
    const url = new URL(target);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** The inline spans of one line. `links` is false inside a link's text (links do not nest). */
function inline(text: string, links = true): Markup {
  const out: Interpolation[] = [];
  let plain = '';
  // Where a closing delimiter was last searched for in vain: any later search fails too.
  const missing = new Map<string, number>();
  const closing = (delimiter: string, from: number): number => {
    if ((missing.get(delimiter) ?? Number.POSITIVE_INFINITY) <= from) return -1;
    const at = text.indexOf(delimiter, from);
    if (at < 0) missing.set(delimiter, from);
    return at;
  };
  const span = (node: Markup, next: number) => {
    if (plain) out.push(plain);
    plain = '';
    out.push(node);
    return next;
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '\\' && ESCAPABLE.test(text[i + 1] ?? '')) {
      plain += text[i + 1];
      i += 2;
      continue;
    }
    if (c === '`') {
      const end = closing('`', i + 1);
      if (end > i + 1) {
        i = span(markup`<code>${text.slice(i + 1, end)}</code>`, end + 1);
        continue;
      }
    }
    if (c === '*' && text[i + 1] === '*') {
      const end = closing('**', i + 2);
      if (end > i + 2 && text[i + 2] !== ' ') {
        i = span(markup`<strong>${inline(text.slice(i + 2, end), links)}</strong>`, end + 2);
        continue;
      }
    } else if (c === '*' && text[i + 1] !== ' ') {
      const end = closing('*', i + 1);
      if (end > i + 1) {
        i = span(markup`<em>${inline(text.slice(i + 1, end), links)}</em>`, end + 1);
        continue;
      }
    }
    if (c === '[' && links) {
      LINK.lastIndex = i;
      const link = LINK.exec(text);
      const href = link && safeLinkTarget(link[2]);
      if (link && href) {
        i = span(markup`<a href="${href}" rel="nofollow noopener noreferrer">${inline(link[1], false)}</a>`, i + link[0].length);
        continue;
      }
    }
    plain += c;
    i++;
  }
  if (plain) out.push(plain);
  return markup`${out}`;
}
