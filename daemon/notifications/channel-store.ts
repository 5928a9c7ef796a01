import type { Kysely, Selectable } from 'kysely';
import { newId } from '../db/ids.js';
import type { Database, NotificationChannelsTable } from '../db/schema.js';
import { toPage, type Page, type PageRequest } from '../http/pagination.js';
import { maskConfig, type ChannelConfig, type ChannelType } from './channel-types.js';

type Db = Kysely<Database>;

/** A channel as the API answers it: secrets masked, always. */
export interface ChannelView {
  uid: string;
  name: string;
  type: ChannelType;
  config: ChannelConfig;
  createdAt: string;
  updatedAt: string;
}

/** A channel as stored, secrets in clear: for delivery and for merging changes, never for answers. */
export interface StoredChannel {
  uid: string;
  name: string;
  type: ChannelType;
  config: ChannelConfig;
}

const toStored = (row: Selectable<NotificationChannelsTable>): StoredChannel => ({
  uid: row.uid,
  name: row.name,
  type: row.type as ChannelType,
  config: JSON.parse(row.config) as ChannelConfig,
});

function toView(row: Selectable<NotificationChannelsTable>): ChannelView {
  const stored = toStored(row);
  return { ...stored, config: maskConfig(stored.type, stored.config), createdAt: row.created_at, updatedAt: row.updated_at };
}

async function findRow(db: Db, orgUid: string, uid: string) {
  return db.selectFrom('notification_channels').selectAll().where('organization_uid', '=', orgUid).where('uid', '=', uid).executeTakeFirst();
}

/** The channel with its secrets, or undefined. Never answer this to a client. */
export async function getStoredChannel(db: Db, orgUid: string, uid: string): Promise<StoredChannel | undefined> {
  const row = await findRow(db, orgUid, uid);
  return row && toStored(row);
}

/** One channel, masked, or undefined. */
export async function getChannel(db: Db, orgUid: string, uid: string): Promise<ChannelView | undefined> {
  const row = await findRow(db, orgUid, uid);
  return row && toView(row);
}

/** A page of channels in creation order, masked. */
export async function listChannels(db: Db, orgUid: string, query: PageRequest): Promise<Page<ChannelView>> {
  let builder = db.selectFrom('notification_channels').selectAll().where('organization_uid', '=', orgUid);
  if (query.cursor) builder = builder.where('uid', '>', query.cursor);
  const rows = await builder.orderBy('uid').limit(query.limit + 1).execute();
  return toPage(rows, query.limit, toView);
}

/** Stores a new channel; answers it masked. */
export async function createChannel(db: Db, orgUid: string, input: { name: string; type: ChannelType; config: ChannelConfig }, now: Date): Promise<ChannelView> {
  const at = now.toISOString();
  const row = { uid: newId(now.getTime()), organization_uid: orgUid, name: input.name, type: input.type, config: JSON.stringify(input.config), created_at: at, updated_at: at };
  await db.insertInto('notification_channels').values(row).execute();
  return toView(row);
}

/** Replaces a channel's name, type and config; undefined when it no longer exists. */
export async function updateChannel(db: Db, orgUid: string, uid: string, input: { name: string; type: ChannelType; config: ChannelConfig }, now: Date): Promise<ChannelView | undefined> {
  const row = await db
    .updateTable('notification_channels')
    .set({ name: input.name, type: input.type, config: JSON.stringify(input.config), updated_at: now.toISOString() })
    .where('organization_uid', '=', orgUid)
    .where('uid', '=', uid)
    .returningAll()
    .executeTakeFirst();
  return row && toView(row);
}

/** Deletes a channel; false when there is none. */
export async function deleteChannel(db: Db, orgUid: string, uid: string): Promise<boolean> {
  const result = await db.deleteFrom('notification_channels').where('organization_uid', '=', orgUid).where('uid', '=', uid).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
