import { escapeMarkup } from '../../daemon/markup.js';
import { DOMParser } from '@xmldom/xmldom';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';

// Every string a member controls that the public page, its Atom feed or a badge shows (the page's
// title and description, the checks' names, incident titles, and the titles the engine makes of
// check names) carries markup, quotes and a CDATA end. The HTML must keep its own elements and
// attributes only, and the XML must parse and give every string back as it was typed.

/** A member-controlled string holding `<`, `&`, `"`, `'` and `]]>`, marked with where it goes. */
const hostile = (what: string) => `${what} <img src=x onerror="alert('${what}')"> & "q" 'a' ]]> </title><script>x</script> &amp;`;

const STATES = ['up', 'degraded', 'down', 'paused', 'pending'] as const;
const COLOURS: Record<(typeof STATES)[number], string> = { up: '#1a7f37', degraded: '#9a6700', down: '#cf222e', paused: '#6e7781', pending: '#6e7781' };

// What the page itself writes: any other element or attribute was injected.
const PAGE_ELEMENTS = new Set([
  'html',
  'head',
  'meta',
  'link',
  'title',
  'style',
  'body',
  'main',
  'header',
  'h1',
  'h2',
  'p',
  'section',
  'ul',
  'ol',
  'li',
  'div',
  'span',
  'strong',
  'br',
  'time',
  'footer',
  'a',
  // An update's body (the Markdown subset) and the subscription form.
  'em',
  'code',
  'form',
  'label',
  'input',
  'button',
]);
const PAGE_ATTRIBUTES = new Set([
  'lang',
  'charset',
  'name',
  'content',
  'rel',
  'href',
  'type',
  'title',
  'class',
  'role',
  'id',
  'aria-labelledby',
  'aria-hidden',
  'datetime',
  'method',
  'action',
  'for',
  'required',
  'maxlength',
  'autocomplete',
]);

interface XmlNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<XmlNode>;
  attributes?: ArrayLike<{ name: string; value: string }>;
  getAttribute?(name: string): string | null;
}

/** Parses XML strictly: any warning or error of the parser fails the test. */
function parseXml(text: string): XmlNode {
  const fail = (message: string) => {
    throw new Error(`not well-formed XML: ${message}`);
  };
  return new DOMParser({ errorHandler: { warning: fail, error: fail, fatalError: fail } }).parseFromString(text, 'application/xml') as unknown as XmlNode;
}

function parseHtml(text: string): XmlNode {
  return new DOMParser({ errorHandler: { warning: () => {}, error: () => {}, fatalError: () => {} } }).parseFromString(text, 'text/html') as unknown as XmlNode;
}

/** Every element below `node`, in document order. */
function elements(node: XmlNode): XmlNode[] {
  const found: XmlNode[] = [];
  for (const child of Array.from(node.childNodes ?? [])) {
    if (child.nodeType === 1) found.push(child, ...elements(child));
  }
  return found;
}

/** Every node of a type below `node` (8: comment, 4: CDATA section). */
function nodesOfType(node: XmlNode, type: number): XmlNode[] {
  return Array.from(node.childNodes ?? []).flatMap((child) => [...(child.nodeType === type ? [child] : []), ...nodesOfType(child, type)]);
}

const named = (node: XmlNode, name: string) => elements(node).filter((element) => element.nodeName.toLowerCase() === name);
const withClass = (node: XmlNode, name: string) => elements(node).filter((element) => (element.getAttribute?.('class') ?? '').split(' ').includes(name));

describe.each(DATABASE_KINDS)('member-controlled text on the public page, feed and badges [%s]', (kind) => {
  let daemon: TestDaemon;
  let server: Server;
  const get = async (path: string) => {
    const res = await fetch(`${daemon.url}${path}`);
    expect(res.status, path).toBe(200);
    return res.text();
  };

  beforeAll(async () => {
    // /up answers at once, /degraded after 20 ms (its check is degraded above 1 ms; the others
    // have no such threshold, so a slow machine changes no state), /down with 500.
    server = createServer((req, res) => {
      if (req.url === '/degraded') setTimeout(() => res.writeHead(200).end('slow'), 20);
      else res.writeHead(req.url === '/down' ? 500 : 200).end('answer');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    daemon = await startTestDaemon(kind);
    const admin = await daemon.adminToken();
    for (const state of STATES) {
      const thresholds = { failuresBeforeDown: 1, successesBeforeUp: 1, timeoutMs: 10_000, ...(state === 'degraded' ? { degradedResponseMs: 1 } : {}) };
      const created = await daemon.request('POST', '/orgs/default/checks', {
        token: admin,
        body: { name: hostile(state), slug: state, type: 'http', target: `${base}/${state}`, thresholds },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      if (state === 'up' || state === 'degraded' || state === 'down') {
        expect((await daemon.request('POST', `/orgs/default/checks/${state}/run`, { token: admin })).status).toBe(200);
      }
    }
    expect((await daemon.request('PATCH', '/orgs/default/checks/paused', { token: admin, body: { enabled: false } })).status).toBe(200);
    const page = { slug: 'status', title: hostile('page title'), description: hostile('page description'), public: true, checks: [...STATES] };
    expect((await daemon.request('POST', '/orgs/default/status-pages', { token: admin, body: page })).status).toBe(201);
    const incident = await daemon.request('POST', '/orgs/default/incidents', { token: admin, body: { title: hostile('incident'), checkSlug: 'pending' } });
    expect(incident.status, JSON.stringify(incident.body)).toBe(201);
    const update = await daemon.request('POST', '/orgs/default/status-pages/status/updates', {
      token: admin,
      body: {
        title: hostile('update'),
        body: `${hostile('body')} [x](javascript:alert(1)) [y](https://example.com/"onclick="alert(1))`,
        state: 'identified',
        checks: ['down'],
      },
    });
    expect(update.status, JSON.stringify(update.body)).toBe(201);
  });
  afterAll(async () => {
    await daemon?.stop();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('keeps the page to its own elements and attributes, and shows every string as typed', async () => {
    const html = parseHtml(await get('/status/default/status'));
    const all = elements(html);
    expect(all.map((element) => element.nodeName.toLowerCase()).filter((name) => !PAGE_ELEMENTS.has(name))).toEqual([]);
    expect(
      all
        .flatMap((element) => Array.from(element.attributes ?? []).map((attribute) => attribute.name.toLowerCase()))
        .filter((name) => !PAGE_ATTRIBUTES.has(name)),
    ).toEqual([]);
    expect(nodesOfType(html, 8)).toEqual([]);

    expect(named(html, 'title')[0].textContent).toBe(`${hostile('page title')}: Partial outage`);
    expect(named(html, 'h1')[0].textContent).toBe(hostile('page title'));
    expect(withClass(html, 'description')[0].textContent).toBe(hostile('page description'));
    expect(withClass(html, 'name').map((element) => element.textContent)).toEqual(STATES.map(hostile));
    expect(
      named(html, 'strong')
        .map((element) => element.textContent)
        .sort(),
    ).toEqual([hostile('incident'), `${hostile('down')} is down`, hostile('update')].sort());
    expect(withClass(html, 'update-body')[0].textContent?.trim()).toBe(
      `${hostile('body')} [x](javascript:alert(1)) [y](https://example.com/"onclick="alert(1))`,
    );
    expect(named(html, 'a').map((element) => element.getAttribute?.('href'))).not.toContain('javascript:alert(1)');
  });

  it('writes an Atom feed that parses and gives every title back', async () => {
    const xml = await get('/status/default/status/feed.atom');
    const feed = parseXml(xml);
    expect(nodesOfType(feed, 4)).toEqual([]);
    const titles = named(feed, 'title').map((element) => element.textContent);
    expect(titles[0]).toBe(`${hostile('page title')}: incidents and updates`);
    expect(titles.slice(1).sort()).toEqual([`${hostile('incident')} (open)`, `${hostile('down')} is down (open)`, `Identified: ${hostile('update')}`].sort());
    expect(named(feed, 'entry')).toHaveLength(3);
    expect(named(feed, 'content')[0].textContent).toBe(
      `<p>${escapeMarkup(`${hostile('body')} [x](javascript:alert(1)) [y](https://example.com/"onclick="alert(1))`)}</p>\n`,
    );
  });

  it('draws badges that parse, name the check as typed, and take the colour of its state', async () => {
    for (const state of STATES) {
      const svg = parseXml(await get(`/api/v1/public/badges/default/${state}/status.svg`));
      const root = elements(svg)[0];
      expect(root.nodeName).toBe('svg');
      expect(named(svg, 'title')[0].textContent).toBe(`${hostile(state)}: ${state}`);
      expect(root.getAttribute!('aria-label')).toBe(`${hostile(state)}: ${state}`);
      expect(named(svg, 'text').map((element) => element.textContent)).toEqual([hostile(state), state]);
      expect(named(svg, 'rect')[2].getAttribute!('fill'), state).toBe(COLOURS[state]);
    }
    for (const [state, value, colour] of [
      ['up', '100%', COLOURS.up],
      ['down', '0%', COLOURS.down],
      ['pending', 'no data', COLOURS.pending],
    ] as const) {
      const svg = parseXml(await get(`/api/v1/public/badges/default/${state}/uptime.svg?window=24h`));
      expect(named(svg, 'title')[0].textContent, state).toBe(`uptime 24h: ${value}`);
      expect(named(svg, 'rect')[2].getAttribute!('fill'), state).toBe(colour);
    }
  });
});
