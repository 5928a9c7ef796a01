import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { referencedSecrets } from '../../../checks/index.js';
import { convertImport } from '../../../importers/index.js';

const KUMA_BACKUP = readFileSync(new URL('../../fixtures/import/uptime-kuma/backup-1.23.json', import.meta.url));
// Credentials the export holds; none may reach a check or a warning.
const SOURCE_SECRETS = ['An4lytics', 'Fin4nce', 'shop-pass'];

describe('imports refer to secrets instead of dropping credentials', () => {
  test('every dropped credential with a field becomes a reference the warning names; no value carries over', async () => {
    const result = await convertImport('selfhosted-monitor-db', KUMA_BACKUP);
    const text = JSON.stringify(result);
    for (const secret of SOURCE_SECRETS) expect(text).not.toContain(secret);
    const references = result.checks.flatMap((check) => referencedSecrets(check.config).map((name) => ({ slug: check.slug, name })));
    expect(references.map((r) => r.name)).toEqual(expect.arrayContaining(['ANALYTICS_DB_PASSWORD', 'FINANCE_SQL_PASSWORD', 'SHOP_KEYWORD_PASSWORD']));
    for (const { slug, name } of references) {
      const warning = result.warnings.find(
        (w) => w.slug === slug && w.code === 'SECRET_DROPPED' && w.message.includes(`set secret ${name} (svc secrets set ${name})`),
      );
      expect(warning, `${slug}: ${name}`).toBeDefined();
    }
    // Before the slug is known a name has a stand-in; none is left over.
    expect(text).not.toContain('SVC_PENDING_SLUG');
  });

  test('a re-run gives the same names, so it never creates a second reference', async () => {
    const first = await convertImport('selfhosted-monitor-db', KUMA_BACKUP);
    const second = await convertImport('selfhosted-monitor-db', KUMA_BACKUP);
    expect(second.checks.map((check) => referencedSecrets(check.config))).toEqual(first.checks.map((check) => referencedSecrets(check.config)));
  });
});
