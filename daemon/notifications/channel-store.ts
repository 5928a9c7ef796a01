import type { Selectable } from 'kysely';
import { newId } from '../db/ids.js';
import type { NotificationChannelsTable } from '../db/schema.js';
import { toPage, type Page, type PageRequest } from '../http/pagination.js';
import type { Keyring } from '../secrets/keyring.js';
import type { ChannelType } from '../../contract/notification-channels.js';
import { maskConfig, type ChannelConfig } from './channel-settings.js';
import type { Executor } from '../db/executor.js';

/** A channel as the API answers it: secrets masked, always. */
export interface ChannelView {
  uid: string;
  name: string;
  type: ChannelType;
  config: ChannelConfig;
  /** Applies to every check that chooses no channel of its own. */
  default: boolean;
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

// The config column is one keyring ciphertext of the settings' JSON: every field, secret or not,
// is read back only through here.
const toStored = (keyring: Keyring, row: Selectable<NotificationChannelsTable>): StoredChannel => ({
  uid: row.uid,
  name: row.name,
  type: row.type as ChannelType,
  config: JSON.parse(keyring.reveal(row.config)) as ChannelConfig,
});

function toView(keyring: Keyring, row: Selectable<NotificationChannelsTable>): ChannelView {
  const stored = toStored(keyring, row);
  return { ...stored, config: maskConfig(stored.type, stored.config), default: row.is_default === 1, createdAt: row.created_at, updatedAt: row.updated_at };
}

/** A view from settings this call just wrote: masked without a round trip through the cipher. */
const freshView = (row: Omit<Selectable<NotificationChannelsTable>, 'config'>, type: ChannelType, config: ChannelConfig): ChannelView => ({
  uid: row.uid,
  name: row.name,
  type,
  config: maskConfig(type, config),
  default: row.is_default === 1,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

async function findRow(db: Executor, orgUid: string, uid: string) {
  return db.selectFrom('notification_channels').selectAll().where('organization_uid', '=', orgUid).where('uid', '=', uid).executeTakeFirst();
}

/** The channel with its secrets, or undefined. Never answer this to a client. */
export async function getStoredChannel(db: Executor, keyring: Keyring, orgUid: string, uid: string): Promise<StoredChannel | undefined> {
  const row = await findRow(db, orgUid, uid);
  return row && toStored(keyring, row);
}

/** One channel, masked, or undefined. */
export async function getChannel(db: Executor, keyring: Keyring, orgUid: string, uid: string): Promise<ChannelView | undefined> {
  const row = await findRow(db, orgUid, uid);
  return row && toView(keyring, row);
}

/** A page of channels in creation order, masked. */
export async function listChannels(db: Executor, keyring: Keyring, orgUid: string, query: PageRequest): Promise<Page<ChannelView>> {
  let builder = db.selectFrom('notification_channels').selectAll().where('organization_uid', '=', orgUid);
  if (query.cursor) builder = builder.where('uid', '>', query.cursor);
  const rows = await builder
    .orderBy('uid')
    .limit(query.limit + 1)
    .execute();
  return toPage(rows, query.limit, (row) => toView(keyring, row));
}

/** Stores a new channel; answers it masked. */
export async function createChannel(
  db: Executor,
  keyring: Keyring,
  orgUid: string,
  input: { name: string; type: ChannelType; config: ChannelConfig; default?: boolean },
  now: Date,
): Promise<ChannelView> {
  const at = now.toISOString();
  const row = {
    uid: newId(now.getTime()),
    organization_uid: orgUid,
    name: input.name,
    type: input.type,
    config: keyring.encrypt(JSON.stringify(input.config)),
    is_default: (input.default ? 1 : 0) as 0 | 1,
    created_at: at,
    updated_at: at,
  };
  await db.insertInto('notification_channels').values(row).execute();
  return freshView(row, input.type, input.config);
}

/** Replaces a channel's name, type and config; undefined when it no longer exists. */
export async function updateChannel(
  db: Executor,
  keyring: Keyring,
  orgUid: string,
  uid: string,
  input: { name: string; type: ChannelType; config: ChannelConfig; default?: boolean },
  now: Date,
): Promise<ChannelView | undefined> {
  const row = await db
    .updateTable('notification_channels')
    .set({
      name: input.name,
      type: input.type,
      config: keyring.encrypt(JSON.stringify(input.config)),
      updated_at: now.toISOString(),
      ...(input.default === undefined ? {} : { is_default: input.default ? 1 : 0 }),
    })
    .where('organization_uid', '=', orgUid)
    .where('uid', '=', uid)
    .returning(['uid', 'organization_uid', 'name', 'type', 'is_default', 'created_at', 'updated_at'])
    .executeTakeFirst();
  return row && freshView(row, input.type, input.config);
}

/** Deletes a channel; false when there is none. */
export async function deleteChannel(db: Executor, orgUid: string, uid: string): Promise<boolean> {
  const result = await db.deleteFrom('notification_channels').where('organization_uid', '=', orgUid).where('uid', '=', uid).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
