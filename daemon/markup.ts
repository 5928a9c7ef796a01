/**
 * Markup sent to the internet (the public status page, its Atom feed, the SVG badges) is written
 * with the `markup` tagged template, which escapes every interpolated value unless it is already
 * `Markup`: a nested `markup` template or text explicitly marked safe with `raw()`. Forgetting to
 * escape is therefore impossible by omission; only `raw()` lets text through unchanged, so each
 * use of it is a place to review.
 *
 * The escaping is the same for HTML and XML: `& < > " '` become character references, which is
 * right in element content and in quoted attribute values of both, and turns `]]>` into
 * `]]&gt;`. Characters XML 1.0 does not allow at all (most C0 controls, lone surrogates, U+FFFE,
 * U+FFFF) become U+FFFD, so a feed or badge always parses. Templates never use CDATA.
 */

const MARKUP_TEXT = Symbol('markup text');

/** Text that is already markup: written into a template as it is. */
export class Markup {
  readonly [MARKUP_TEXT]: string;
  constructor(text: string) {
    this[MARKUP_TEXT] = text;
  }
  toString(): string {
    return this[MARKUP_TEXT];
  }
}

/** What a template accepts: text and numbers (escaped), markup (as it is), lists of them, and nothing. */
export type Interpolation = string | number | Markup | null | undefined | false | readonly Interpolation[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

// Outside XML 1.0's Char production: C0 controls but TAB, LF and CR; U+FFFE and U+FFFF; surrogates not in a pair.
const NOT_XML_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

// Any character either replacement above could change (a surrogate of a valid pair included): text without one is safe as it is.
const MAY_NEED_ESCAPING = /[&<>"'\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

/** Text made safe for element content and quoted attribute values, in HTML and in XML. */
export const escapeMarkup = (text: string): string =>
  MAY_NEED_ESCAPING.test(text) ? text.replace(NOT_XML_CHARACTER, '\uFFFD').replace(/[&<>"']/g, (c) => ESCAPES[c]) : text;

/** Marks text as markup, written unescaped: only for text the program itself wrote (a style sheet, a fixed fragment). */
export const raw = (text: string): Markup => new Markup(text);

function interpolate(value: Interpolation): string {
  if (value instanceof Markup) return value.toString();
  if (Array.isArray(value)) return value.map(interpolate).join('');
  if (value === null || value === undefined || value === false) return '';
  // A number's text is digits, a sign, a point, "e", "Infinity" or "NaN": nothing to escape.
  return typeof value === 'number' ? String(value) : escapeMarkup(String(value));
}

/** The tagged template: `markup\`<h1>${title}</h1>\`` escapes `title`; nested templates and `raw()` stay as they are. */
export function markup(strings: TemplateStringsArray, ...values: Interpolation[]): Markup {
  let text = strings[0];
  for (let index = 0; index < values.length; index++) text += interpolate(values[index]) + strings[index + 1];
  return new Markup(text);
}
