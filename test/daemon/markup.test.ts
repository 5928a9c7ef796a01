import { describe, expect, it } from 'vitest';
import { escapeMarkup, markup, raw } from '../../daemon/markup.js';

describe('markup template', () => {
  it('escapes every interpolated value, in lists too, and leaves nested templates and raw() as they are', () => {
    const name = `<a href="x">'&'</a> ]]>`;
    const items = [name, markup`<b>${name}</b>`];
    expect(String(markup`<p title="${name}">${items}${raw('<br>')}${42}${null}${undefined}${false}</p>`)).toBe(
      '<p title="&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt; ]]&gt;">' +
        '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt; ]]&gt;<b>&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt; ]]&gt;</b><br>42</p>',
    );
  });

  it('replaces characters XML does not allow, and keeps tabs, line breaks and pairs of surrogates', () => {
    expect(escapeMarkup('a\u0000b\u001bc\uFFFFd\uD800e\tf\ng\r😀')).toBe('a\uFFFDb\uFFFDc\uFFFDd\uFFFDe\tf\ng\r😀');
  });

  it('gives text with nothing to escape back as it is, and escapes each character that needs it wherever it stands', () => {
    // Text without one of these is returned without being rewritten (daemon/markup.ts MAY_NEED_ESCAPING).
    const plain = ['', 'd-up', '2026-11-20: 99.95 % uptime', 'Ünïcödé ✓ 😀', 'tab\there\nand\rthere', '\u00A0\u2028\uFFFD\uFFFC\uFFFD'];
    for (const text of plain) expect(escapeMarkup(text)).toBe(text);
    const escaped: [string, string][] = [
      ['&', '&amp;'],
      ['<', '&lt;'],
      ['>', '&gt;'],
      ['"', '&quot;'],
      ["'", '&#39;'],
      ['\u0000', '\uFFFD'],
      ['\u0008', '\uFFFD'],
      ['\u000B', '\uFFFD'],
      ['\u000C', '\uFFFD'],
      ['\u000E', '\uFFFD'],
      ['\u001F', '\uFFFD'],
      ['\uFFFE', '\uFFFD'],
      ['\uFFFF', '\uFFFD'],
      ['\uD800', '\uFFFD'],
      ['\uDBFF', '\uFFFD'],
      ['\uDC00', '\uFFFD'],
      ['\uDFFF', '\uFFFD'],
    ];
    for (const [character, written] of escaped) {
      for (const [before, after] of [
        ['', ''],
        ['plain ', ''],
        ['', ' plain'],
        ['a', 'b'],
      ]) {
        expect(escapeMarkup(`${before}${character}${after}`), JSON.stringify(character)).toBe(`${before}${written}${after}`);
      }
    }
    expect(String(markup`${-1.5}${1e21}${Number.NaN}`)).toBe('-1.51e+21NaN');
  });
});
