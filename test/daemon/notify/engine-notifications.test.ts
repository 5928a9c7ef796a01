import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startEngineSuite, type EngineSuite } from '../../support/engine-suite.js';

describe.each(DATABASE_KINDS)('incidents the engine opens and resolves are notified [%s]', (kind) => {
  let suite: EngineSuite;

  beforeAll(async () => {
    suite = await startEngineSuite(kind);
    await suite.createCheck('Shop');
  });
  afterAll(() => suite?.stop());

  it('sends opened with the failing result’s message, then resolved', async () => {
    await suite.nextRun();
    suite.status = 503;
    await suite.nextRun();
    const [opened] = await suite.receiver.waitFor('/hook', 1);
    expect(opened.json).toMatchObject({
      event: 'incident.opened',
      check: { slug: 'shop', name: 'Shop' },
      incident: { title: 'Shop is down', status: 'open' },
      lastResultMessage: 'expected status 200-299, got 503',
    });
    expect(opened.json.text).toContain('Last result: expected status 200-299, got 503');
    suite.status = 200;
    await suite.nextRun();
    const [, resolved] = await suite.receiver.waitFor('/hook', 2);
    expect(resolved.json).toMatchObject({ event: 'incident.resolved', incident: { uid: opened.json.incident.uid, status: 'resolved' } });
  });
});
