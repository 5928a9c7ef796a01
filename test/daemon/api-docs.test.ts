import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderRouteTable, ROUTES_END, ROUTES_START } from '../support/api-docs.js';
import { updateSwitch } from '../support/required-tool.js';

describe('docs/api.md', () => {
  it('lists every route of the route table (UPDATE_DOCS=1 rewrites the list)', () => {
    const path = new URL('../../docs/api.md', import.meta.url);
    const docs = readFileSync(path, 'utf8');
    const start = docs.indexOf(ROUTES_START);
    const end = docs.indexOf(ROUTES_END);
    expect(start).toBeGreaterThan(0);
    const expected = `${ROUTES_START}\n${renderRouteTable()}\n${ROUTES_END}`;
    const actual = docs.slice(start, end + ROUTES_END.length);
    if (updateSwitch('UPDATE_DOCS') && actual !== expected) writeFileSync(path, docs.replace(actual, expected));
    else expect(actual, 'docs/api.md is out of date: run UPDATE_DOCS=1 npx vitest run test/daemon/api-docs.test.ts').toBe(expected);
  });
});
