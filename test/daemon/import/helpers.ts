import { readFileSync } from 'node:fs';
import { buildDatabase, FIXTURE_DIR } from '../../fixtures/import/uptime-kuma/build-database.js';
import type { TestDaemon } from '../../support/daemon.js';
import { failInsertsWhere } from '../../support/inject-failure.js';

/** A Gatus configuration of `count` HTTP endpoints to loopback, named "Service 0" onwards, each in `group` when one is given. */
export function gatusEndpoints(count: number, group?: string): string {
  const groupLine = group ? `    group: ${group}\n` : '';
  return `endpoints:\n${Array.from({ length: count }, (_, i) => `  - name: Service ${i}\n${groupLine}    url: http://127.0.0.1:9/${i}\n    conditions: ["[STATUS] == 200"]\n`).join('')}`;
}

/** A small Gatus configuration: two checks, a dropped secret, and one endpoint with no equivalent. */
export function gatusConfig(options: { interval?: string; extraGroup?: string } = {}): string {
  return `
endpoints:
  - name: API health
    group: core
    url: https://api.example.com/health
    interval: ${options.interval ?? '30s'}
    conditions: ["[STATUS] == 200", "[RESPONSE_TIME] < 500"]
    client:
      oauth2:
        token-url: https://auth.example.com/token
        client-id: abc
        client-secret: s3cr3t
  - name: Database
    group: ${options.extraGroup ?? 'data'}
    url: tcp://db.example.com:5432
    conditions: ["[CONNECTED] == true"]
  - name: Queue
    url: sctp://queue.example.com:9999
    conditions: ["[CONNECTED] == true"]
`;
}

/** The convert endpoint's path. */
export const convertPath = (query: string, org = 'default') => `/orgs/${org}/checks/import/convert?${query}`;

/**
 * Everything stored about the organization's checks, rows and label rows, as one string: equal
 * strings mean the import wrote nothing.
 */
export async function checksSnapshot(daemon: TestDaemon, org = 'default'): Promise<string> {
  const db = daemon.deps.db.kysely;
  const { uid } = await db.selectFrom('organizations').select('uid').where('slug', '=', org).executeTakeFirstOrThrow();
  const checks = await db.selectFrom('checks').selectAll().where('organization_uid', '=', uid).orderBy('uid').execute();
  const labels = await db.selectFrom('check_labels').selectAll().where('organization_uid', '=', uid).orderBy('check_uid').orderBy('key').execute();
  return JSON.stringify({ checks, labels });
}

/** How many checks the organization has. */
export async function checkCount(daemon: TestDaemon, org = 'default'): Promise<number> {
  const db = daemon.deps.db.kysely;
  const row = await db
    .selectFrom('checks')
    .innerJoin('organizations', 'organizations.uid', 'checks.organization_uid')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organizations.slug', '=', org)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Makes the database fail when a label with `value` is written: the check rows of the import
 * are already in by then, so the failure lands halfway through the transaction.
 */
export const injectLabelFailure = (daemon: TestDaemon, value: string) => failInsertsWhere(daemon, 'check_labels', 'value', value);

const TIME_SERVER = "'ntp.example.com', 123, 250, 20, 100, 60);";
const INTRANET = "'CORP', 'WS01', 60, 0);";

/**
 * The self-hosted monitor's 2.5 fixture database, with the intervals of two monitors as given
 * (60 in the fixture): `Time server` (slug time-server) and `Intranet (NTLM)` (intranet-ntlm);
 * the monitors named in `paused` are paused in the source.
 */
export function kumaWithIntervals(options: { timeServer?: number; intranet?: number; paused?: string[] } = {}): Promise<Uint8Array> {
  let statements = readFileSync(new URL('kuma-2.5.sql', FIXTURE_DIR), 'utf8');
  for (const name of options.paused ?? []) statements += `\nUPDATE monitor SET active = 0 WHERE name = '${name}';`;
  if (options.timeServer !== undefined) statements = statements.replace(TIME_SERVER, TIME_SERVER.replace('60);', `${options.timeServer});`));
  if (options.intranet !== undefined) statements = statements.replace(INTRANET, INTRANET.replace('60,', `${options.intranet},`));
  return buildDatabase('2.5', statements);
}
