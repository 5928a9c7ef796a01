import { readFileSync } from 'node:fs';
import initSqlJs from 'sql.js';

// A 2.x database of the self-hosted monitor with 10,000 monitors, built with sql.js from the
// tool's own 2.5 DDL (kept with the test fixtures). Like a real install: a group every 100
// monitors, two or three tags on each, notifications on some, a connection string with a
// password on the database monitors.

const SCHEMA = new URL('../../test/fixtures/import/uptime-kuma/schema-2.5.sql', import.meta.url);
const TAGS = ['env', 'team', 'region', 'tier'];
const TEAMS = ['payments', 'search', 'platform', 'identity', 'growth'];

function row(id: number): (string | number | null)[] {
  const host = `svc-${id}.example.com`;
  // type, url, hostname, port, keyword, headers, dns_resolve_type, push_token, connection string
  switch (id % 10) {
    case 0:
    case 1:
    case 2:
      return ['http', `https://${host}/health`, null, null, null, '{"Accept": "application/json"}', null, null, null];
    case 3:
    case 4:
      return ['keyword', `https://${host}/`, null, null, 'OK', null, null, null, null];
    case 5:
      return ['port', null, host, 443, null, null, null, null, null];
    case 6:
      return ['ping', null, host, null, null, null, null, null, null];
    case 7:
      return ['dns', null, host, null, null, null, 'A', null, null];
    case 8:
      return ['push', null, null, null, null, null, null, `push${id}`, null];
    default:
      return ['postgres', null, null, null, null, null, null, null, `postgres://monitor:pw${id}@db-${id}.example.com:5432/app`];
  }
}

/** The database file's bytes: `monitors` monitors plus one group monitor per 100 of them. */
export async function kumaDatabase(monitors: number): Promise<Uint8Array> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  try {
    db.exec(readFileSync(SCHEMA, 'utf8'));
    db.exec("INSERT INTO user (id, username) VALUES (1, 'admin')");
    db.exec("INSERT INTO notification (id, name, user_id) VALUES (1, 'Ops chat', 1)");
    TAGS.forEach((name, i) => db.run('INSERT INTO tag (id, name, color) VALUES (?, ?, ?)', [i + 1, name, '#4B5563']));
    db.exec('BEGIN');
    const insert = db.prepare(
      `INSERT INTO monitor (id, name, type, user_id, url, hostname, port, keyword, headers, dns_resolve_type, push_token,
        database_connection_string, interval, timeout, maxretries, retry_interval, parent, active)
       VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, 60, 30, 1, 60, ?, ?)`,
    );
    const tag = db.prepare('INSERT INTO monitor_tag (monitor_id, tag_id, value) VALUES (?, ?, ?)');
    const link = db.prepare('INSERT INTO monitor_notification (monitor_id, notification_id) VALUES (?, 1)');
    let id = 0;
    let group = 0;
    for (let n = 0; n < monitors; n++) {
      if (n % 100 === 0) {
        group = ++id;
        insert.run([group, `Group ${group}`, 'group', null, null, null, null, null, null, null, null, null, 1]);
      }
      id++;
      const [type, ...rest] = row(id);
      insert.run([id, `Monitor ${id}`, type, ...rest, group, id % 17 === 0 ? 0 : 1]);
      tag.run([id, 1, id % 3 === 0 ? 'staging' : 'production']);
      tag.run([id, 2, TEAMS[id % TEAMS.length]]);
      if (id % 4 === 0) tag.run([id, 3 + (id % 2), 'eu']);
      if (id % 5 === 0) link.run([id]);
    }
    insert.free();
    tag.free();
    link.free();
    db.exec('COMMIT');
    return db.export();
  } finally {
    db.close();
  }
}
