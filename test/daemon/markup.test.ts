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
});
