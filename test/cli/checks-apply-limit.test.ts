import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from '../support/cli.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../support/daemon.js';

const checks = (names: string[]) => `checks:\n${names.map((name) => `  - name: ${name}\n    type: tcp\n    target: ${name}.example.com:22\n`).join('')}`;

describe.each(DATABASE_KINDS)('svc checks apply within the check limit [%s]', (kind) => {
  let daemon: TestDaemon;
  let env: Record<string, string>;
  let dir: string;
  const slugs = async () =>
    ((await daemon.request('GET', '/orgs/default/checks?limit=500', { token: env.SVC_TOKEN })).body.items as { slug: string }[]).map((c) => c.slug).sort();
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  beforeAll(async () => {
    daemon = await startTestDaemon(kind, { env: { SVC_CHECKS_PER_ORG_LIMIT: '2' } });
    dir = mkdtempSync(join(tmpdir(), 'svc-apply-limit-'));
    env = { SVC_CONFIG_DIR: dir, SVC_URL: daemon.url, SVC_TOKEN: await daemon.adminToken() };
  });
  afterAll(() => daemon?.stop());

  it('refuses a file that would go beyond the limit before writing anything; --prune makes room first', async () => {
    const refused = await runSvc(['checks', 'apply', '-f', file('three.yaml', checks(['alpha', 'beta', 'gamma']))], { env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('at most 2 checks');
    expect(await slugs()).toEqual([]);

    expect((await runSvc(['checks', 'apply', '-f', file('two.yaml', checks(['alpha', 'beta']))], { env })).code).toBe(0);
    // Swapping one for another within the limit: deletions go first.
    const swapped = await runSvc(['checks', 'apply', '-f', file('swap.yaml', checks(['alpha', 'delta'])), '--prune'], { env });
    expect(swapped.code, swapped.stderr).toBe(0);
    expect(await slugs()).toEqual(['alpha', 'delta']);
  });
});
