import { afterAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../../daemon/clock.js';
import { newId } from '../../../daemon/db/ids.js';
import { statesOf } from '../../../daemon/runner/check-runtime.js';
import { writeRecords, type RunRecord } from '../../../daemon/runner/result-writer.js';
import { DATABASE_KINDS } from '../../support/databases.js';
import { startTestDaemon, type TestDaemon } from '../../support/daemon.js';

// The engine records the state changes of one batch of results together, and reads what the
// checks going down need for their incidents' messages ahead, for all of them at once
// (daemon/runner/check-incidents.ts, recordStateChanges; daemon/notify/opening-reads.ts). A batch
// in which many checks change must leave exactly the incidents, messages and state changes that
// the same results written one by one leave.

const NOW = Date.parse('2026-11-30T10:00:00Z');
const MINUTE = 60_000;
/** The leading characters of an id that hold its time (daemon/db/ids.ts). */
const TIME_PART = 10;

/** The checks of the scenario, and what each one's results do within the one batch. */
const CHECKS = {
  /** Goes down: opens an incident to the default channel. */
  plain: ['down'],
  /** Goes down, and chose a channel of its own. */
  chosen: ['down'],
  /** Goes down with an incident about it already open: joins it. */
  'under-incident': ['down'],
  /** Had two incidents this hour: its first down is its third (not flapping), its second down, after coming up, its fourth (flapping). */
  borderline: ['down', 'up', 'down'],
  /** Had four incidents this hour: flapping at once. */
  flapping: ['down'],
  /** Comes up from down: resolves its open incident. */
  recovers: ['up'],
} as const satisfies Record<string, readonly ('up' | 'down')[]>;

type Slug = keyof typeof CHECKS;

interface Scenario {
  daemon: TestDaemon;
  records: RunRecord[];
}

/** A daemon with the scenario's checks, channels and earlier incidents, and the batch of results it will be given. */
async function scenario(kind: (typeof DATABASE_KINDS)[number]): Promise<Scenario> {
  // No runner: only the records below change the checks' states.
  const daemon = await startTestDaemon(kind, { clock: manualClock(new Date(NOW)), env: { SVC_NODE_ROLE: 'api' } });
  const admin = await daemon.adminToken();
  const db = daemon.deps.db.kysely;
  const org = await db.selectFrom('organizations').select('uid').executeTakeFirstOrThrow();
  for (const [name, isDefault] of [
    ['default', true],
    ['own', false],
  ] as const) {
    const created = await daemon.request('POST', '/orgs/default/notification-channels', {
      token: admin,
      body: { name, type: 'webhook', config: { url: `http://127.0.0.1:9/${name}` }, default: isDefault },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  }
  const own = await db.selectFrom('notification_channels').select('uid').where('name', '=', 'own').executeTakeFirstOrThrow();
  const records: RunRecord[] = [];
  for (const [index, slug] of (Object.keys(CHECKS) as Slug[]).entries()) {
    const created = await daemon.request('POST', '/orgs/default/checks', {
      token: admin,
      body: { name: `Check ${slug}`, slug, type: 'http', target: 'http://127.0.0.1:9/' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { uid } = await db.selectFrom('checks').select('uid').where('slug', '=', slug).executeTakeFirstOrThrow();
    const series = Number((await statesOf(db, [uid], NOW)).get(uid)!.series);
    const check = { uid, organizationUid: org.uid, slug, name: `Check ${slug}`, thresholds: { failuresBeforeDown: 1, successesBeforeUp: 1 } };
    if (slug === 'chosen') await db.insertInto('check_channels').values({ check_uid: uid, channel_uid: own.uid, organization_uid: org.uid }).execute();
    const earlier = { borderline: 2, flapping: 4 }[slug as string] ?? 0;
    for (let i = 0; i < earlier; i++) await incidentAbout(daemon, org.uid, uid, slug, NOW - (50 - i * 10) * MINUTE, 'resolved');
    if (slug === 'under-incident') await incidentAbout(daemon, org.uid, uid, slug, NOW - 5 * MINUTE, 'open');
    if (slug === 'recovers') {
      const incident = await incidentAbout(daemon, org.uid, uid, slug, NOW - 5 * MINUTE, 'open');
      await db.updateTable('check_states').set({ state: 'down', incident_uid: incident }).where('check_uid', '=', uid).execute();
    }
    for (const [step, status] of CHECKS[slug].entries()) {
      records.push({ series, check, at: NOW + step * 1000 + index, result: { status, latencyMs: 5, message: `${status} ${step}` } });
    }
  }
  return { daemon, records };
}

async function incidentAbout(daemon: TestDaemon, orgUid: string, checkUid: string, slug: string, at: number, status: 'open' | 'resolved'): Promise<string> {
  const uid = newId(at);
  const when = new Date(at).toISOString();
  await daemon.deps.db.kysely
    .insertInto('incidents')
    .values({
      uid,
      organization_uid: orgUid,
      title: `Check ${slug} is down`,
      status,
      check_uid: checkUid,
      check_slug: slug,
      opened_by: null,
      acknowledged_at: null,
      acknowledged_by: null,
      resolved_at: status === 'resolved' ? when : null,
      resolved_by: null,
      created_at: when,
      updated_at: when,
    })
    .execute();
  return uid;
}

/** What the results left, without the uids and times that differ from one database to the next. */
async function outcome(daemon: TestDaemon) {
  const db = daemon.deps.db.kysely;
  const incidents = await db
    .selectFrom('incidents')
    .select(['check_slug', 'status', 'created_at', 'resolved_by_system'])
    .orderBy('check_slug')
    .orderBy('created_at')
    .execute();
  const channels = new Map((await db.selectFrom('notification_channels').select(['uid', 'name']).execute()).map((row) => [row.uid, row.name]));
  const rows = await db.selectFrom('notification_outbox').select(['uid', 'channel_uid', 'recipient', 'event', 'payload']).orderBy('uid').execute();
  const messages = rows.map((row) => {
    const payload = JSON.parse(row.payload) as { check: { slug: string } | null; flapping?: unknown; lastResultMessage: string | null };
    return {
      // The messages of one incident's change share its millisecond: they are ordered by destination.
      at: row.uid.slice(0, TIME_PART),
      channel: row.channel_uid ? channels.get(row.channel_uid) : row.recipient,
      event: row.event,
      check: payload.check?.slug ?? null,
      flapping: payload.flapping ?? null,
      lastResultMessage: payload.lastResultMessage,
    };
  });
  messages.sort((a, b) => a.at.localeCompare(b.at) || String(a.channel).localeCompare(String(b.channel)));
  const changes = await db.selectFrom('check_state_changes').select(['check_slug', 'from_state', 'to_state', 'message', 'at']).orderBy('at').execute();
  const joined = await db
    .selectFrom('check_state_changes as sc')
    .leftJoin('incidents as i', 'i.uid', 'sc.incident_uid')
    .select(['sc.check_slug', 'sc.to_state', 'i.created_at'])
    .orderBy('sc.at')
    .execute();
  const states = await db
    .selectFrom('check_states as s')
    .innerJoin('checks as c', 'c.uid', 's.check_uid')
    .leftJoin('incidents as i', 'i.uid', 's.incident_uid')
    .select(['c.slug', 's.state', 'i.created_at'])
    .orderBy('c.slug')
    .execute();
  return { incidents, messages, changes, joined, states };
}

describe.each(DATABASE_KINDS)('a batch of results in which many checks change [%s]', (kind) => {
  const daemons: TestDaemon[] = [];
  afterAll(() => Promise.all(daemons.map((daemon) => daemon.stop())));

  it('leaves the incidents, messages and state changes that the same results written one by one leave', async () => {
    const together = await scenario(kind);
    const oneByOne = await scenario(kind);
    daemons.push(together.daemon, oneByOne.daemon);
    expect(await writeRecords(together.daemon.deps.db, together.records)).toHaveLength(together.records.length);
    for (const record of oneByOne.records) expect(await writeRecords(oneByOne.daemon.deps.db, [record])).toHaveLength(1);

    const expected = await outcome(oneByOne.daemon);
    // The scenario's cases, as the rules give them (to the channels; the admin's own e-mail follows the same rules).
    const opened = (slug: Slug) =>
      expected.messages.filter((message) => message.check === slug && (message.channel === 'default' || message.channel === 'own'));
    expect(expected.messages.filter((message) => message.channel === 'admin@svc.local').length).toBeGreaterThan(0);
    expect(opened('plain').map((m) => [m.channel, m.event])).toEqual([['default', 'incident.opened']]);
    expect(opened('chosen').map((m) => [m.channel, m.event])).toEqual([['own', 'incident.opened']]);
    expect(opened('under-incident')).toEqual([]);
    expect(opened('flapping').map((m) => [m.event, m.flapping])).toEqual([['check.flapping', { incidents: 5, windowMinutes: 60 }]]);
    expect(opened('borderline').map((m) => [m.event, m.flapping])).toEqual([
      ['incident.opened', null],
      ['incident.resolved', null],
      ['check.flapping', { incidents: 4, windowMinutes: 60 }],
    ]);
    expect(opened('recovers').map((m) => m.event)).toEqual(['incident.resolved']);
    expect(opened('plain')[0].lastResultMessage).toBe('down 0');

    expect(await outcome(together.daemon)).toEqual(expected);
  });
});
