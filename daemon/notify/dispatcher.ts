import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import type { Db } from '../db/connect.js';
import type { Logger } from '../log.js';
import type { Keyring } from '../secrets/keyring.js';
import { getStoredChannel, type StoredChannel } from '../notifications/channel-store.js';
import type { ChannelType } from '../../contract/notification-channels.js';
import type { NotificationFacts } from './message.js';
import { DeliveryError } from './delivery-error.js';
import type { Notifier } from './notifier.js';
import { laneOf, leaseDue, markFailed, markSent, pruneDeliveries, type OutboxRow } from './outbox.js';
import { outboxStatistics } from './outbox-statistics.js';
import { failureLog } from '../failure-log.js';
import { listenForQueuedMessages } from './outbox-bell.js';
import { startPollingLoop } from './polling-loop.js';

/** Why a member's personal e-mail is not sent when no SMTP server is configured. */
const MAIL_OFF = new DeliveryError('e-mail is off: no SMTP server is configured (SVC_SMTP_URL)', null, true);

/** Messages one daemon delivers at once. */
const SLOTS = 50;
/**
 * Messages one daemon delivers at once to one channel (members' own e-mail counting as one): a
 * receiver that hangs until SVC_NOTIFY_TIMEOUT holds up its own messages, not the others'.
 */
const SLOTS_PER_CHANNEL = 25;
/**
 * How long a channel's settings, once read, serve the deliveries that follow: a burst of
 * incidents to one channel reads (and decrypts) it once a second, and a change to a channel
 * reaches the messages leased a second later at most.
 */
const CHANNEL_READ_FOR_MS = 1000;
/** How often a daemon deletes old entries of the delivery log. */
const PRUNE_EVERY_MS = 3600_000;

/** The running delivery loop of one daemon. */
export interface Dispatcher {
  /** The lease owner name of this daemon (unique per process start). */
  readonly owner: string;
  /** Stops leasing and waits for the deliveries under way. */
  stop(): Promise<void>;
}

/**
 * Starts the loop that leases due messages from the outbox and delivers them, SLOTS at a time
 * and SLOTS_PER_CHANNEL to one channel; deliveries that end make room for the next without
 * waiting for the slowest, and when nothing more is due the loop sleeps SVC_NOTIFY_POLL_INTERVAL
 * (polling-loop.ts), or until this daemon queues messages of its own (outbox-bell.ts).
 * "Now" is the injected clock, so tests skip back-off waits by moving it.
 */
export function startDispatcher(deps: { db: Db; clock: Clock; config: Config; logger: Logger; notifier: Notifier; keyring: Keyring }): Dispatcher {
  const owner = randomUUID();
  const { db, clock, config, logger, notifier, keyring } = deps;

  let channels = new Map<string, Promise<StoredChannel | undefined>>();
  let channelsReadAt = 0;
  const channelOf = (organizationUid: string, channelUid: string) => {
    if (Date.now() - channelsReadAt >= CHANNEL_READ_FOR_MS) {
      channels = new Map();
      channelsReadAt = Date.now();
    }
    const key = `${organizationUid}/${channelUid}`;
    let channel = channels.get(key);
    if (!channel) channels.set(key, (channel = getStoredChannel(db.kysely, keyring, organizationUid, channelUid)));
    return channel;
  };

  const deliverOne = async (row: OutboxRow) => {
    let type: ChannelType;
    let channelConfig: Record<string, unknown>;
    if (row.channel_uid) {
      const channel = await channelOf(row.organization_uid, row.channel_uid);
      if (!channel) return; // deleted since: its messages went with it
      type = channel.type;
      channelConfig = channel.config;
    } else {
      if (!config.mail.smtpUrl) {
        // A member's own e-mail with e-mail off: recorded as not sent, quietly (start-up said so once).
        await markFailed(db, row, owner, MAIL_OFF, clock.now(), config.notify.retryForSeconds);
        return;
      }
      type = 'email';
      channelConfig = { addresses: [row.recipient] };
    }
    const facts = JSON.parse(row.payload) as NotificationFacts;
    const result = await notifier.deliver({ uid: row.uid, type, config: channelConfig, facts, now: clock.now() });
    if (result.ok) await markSent(db, row, owner, result.responseCode, clock.now());
    else {
      const retried = await markFailed(db, row, owner, result.error, clock.now(), config.notify.retryForSeconds);
      logger.warn(
        { delivery: row.uid, channel: row.channel_uid, type, attempt: row.attempts, retried, err: result.error.message },
        'notification delivery failed',
      );
    }
  };

  const refreshStatistics = outboxStatistics(db, 'notification_outbox');
  let prunedAt = 0;
  const loop = startPollingLoop<OutboxRow>({
    slots: SLOTS,
    lanes: { slotsPerLane: SLOTS_PER_CHANNEL, laneOf },
    intervalMs: config.notify.pollIntervalSeconds * 1000,
    async lease(limit, leaveOut) {
      if (Date.now() - prunedAt > PRUNE_EVERY_MS) {
        prunedAt = Date.now();
        await pruneDeliveries(db, clock.now());
      }
      const rows = await leaseDue(db, owner, clock.now(), config.notify.leaseSeconds, limit, leaveOut);
      // A full lease is a burst: fresh statistics let the next leases stop at their limit.
      await refreshStatistics(rows.length === limit).catch((error: Error) =>
        logger.warn({ err: error.message }, 'notification outbox statistics could not be refreshed'),
      );
      return rows;
    },
    deliver: (row) =>
      deliverOne(row).catch((error: Error) => logger.error({ delivery: row.uid, err: error.message }, 'notification delivery could not be recorded')),
    failures: failureLog(logger, { failed: 'notification outbox could not be read', recovered: 'notification outbox can be read again' }),
    // Messages this daemon queues are delivered as soon as they commit.
    listen: (poke) => listenForQueuedMessages(db.kysely, 'notification_outbox', poke),
  });
  return { owner, stop: () => loop.stop() };
}
