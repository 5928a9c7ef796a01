import { randomUUID } from 'node:crypto';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config/config.js';
import type { Db } from '../../db/connect.js';
import type { Logger } from '../../log.js';
import { DeliveryError } from '../../notify/delivery-error.js';
import { failureLog } from '../../failure-log.js';
import { listenForQueuedMessages } from '../../notify/outbox-bell.js';
import { outboxStatistics } from '../../notify/outbox-statistics.js';
import { startPollingLoop, type PollingLoop } from '../../notify/polling-loop.js';
import type { MailSender } from '../../notify/mail-sender.js';
import { subscriptionLinks } from '../public/public-links.js';
import { pruneMaintenanceMail, queueMaintenanceMail } from './maintenance-mail.js';
import { leaseDueMail, markMailFailed, markMailSent, pruneSubscriberMail, type SubscriberMailRow } from './subscriber-outbox.js';
import { CONFIRM_DAYS, issueConfirmToken, issueUnsubscribeToken } from './subscriptions.js';

/** Mails one daemon sends at once. */
const SLOTS = 25;
const PRUNE_EVERY_MS = 3600_000;
/** The maintenance mail due is looked for once per this much of the daemon's clock. */
const MAINTENANCE_EVERY_MS = 60_000;

/** The running subscriber-mail loop of one daemon: the outbox's polling loop itself. */
export type SubscriberMailer = PollingLoop;

/** The mail as it goes out: the text with its link, and for news the RFC 8058 one-click headers. */
export function finishedMail(row: SubscriberMailRow, links: { confirm: string; unsubscribe: string }): { text: string; headers?: Record<string, string> } {
  if (row.kind === 'confirmation') {
    return {
      text: `${row.text}\n\nConfirm the subscription (the link works for ${CONFIRM_DAYS} days):\n${links.confirm}\n\nIf you did not ask for this, ignore this mail: nothing is sent to you unless you confirm.\n`,
    };
  }
  return {
    text: `${row.text}\n\n--\nYou receive this mail because you subscribed to this status page.\nUnsubscribe: ${links.unsubscribe}\n`,
    headers: { 'List-Unsubscribe': `<${links.unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}

/**
 * Starts the loop that leases due subscriber mail and sends it over SMTP, as the notification
 * dispatcher does for its outbox (with the same polling loop, polling-loop.ts). Each mail gets
 * its own link token when it is sent (a confirmation the newest confirm token, news an
 * unsubscribe token), stored as a hash only.
 * Once a minute it also queues the maintenance mail that has come due (maintenance-mail.ts).
 * The log names the mail and subscriber by uid, never by address.
 */
export function startSubscriberMailer(deps: { db: Db; clock: Clock; config: Config; logger: Logger; sender: MailSender }): SubscriberMailer {
  const owner = randomUUID();
  const { db, clock, config, logger, sender } = deps;

  const deliverOne = async (row: SubscriberMailRow) => {
    const target = await db.kysely
      .selectFrom('status_page_subscribers as s')
      .innerJoin('status_pages as p', 'p.uid', 's.status_page_uid')
      .innerJoin('organizations as o', 'o.uid', 'p.organization_uid')
      .select(['s.email', 's.confirmed_at', 'p.slug as page_slug', 'o.slug as org_slug'])
      .where('s.uid', '=', row.subscriber_uid)
      .executeTakeFirst();
    // Gone, or confirmed since the confirmation was queued: nothing to send.
    if (!target || (row.kind === 'confirmation' && target.confirmed_at) || (row.kind === 'message' && !target.confirmed_at)) {
      await markMailSent(db, row, owner, clock.now());
      return;
    }
    const token =
      row.kind === 'confirmation'
        ? await issueConfirmToken(db.kysely, row.subscriber_uid, clock.now())
        : await issueUnsubscribeToken(db.kysely, row.subscriber_uid, clock.now());
    const mail = finishedMail(row, subscriptionLinks(config.baseUrl, target.org_slug, target.page_slug, token));
    try {
      await sender.send({ to: [target.email], subject: row.subject, ...mail });
      await markMailSent(db, row, owner, clock.now());
    } catch (error) {
      const failure = error instanceof DeliveryError ? error : new DeliveryError('the mail could not be sent');
      const retried = await markMailFailed(db, row, owner, failure, clock.now(), config.notify.retryForSeconds);
      logger.warn({ mail: row.uid, subscriber: row.subscriber_uid, attempt: row.attempts, retried, err: failure.message }, 'subscriber mail failed');
    }
  };

  let prunedAt = 0;
  let maintenanceAt = Number.NEGATIVE_INFINITY;
  const refreshStatistics = outboxStatistics(db, 'status_page_mail');
  const maintenanceFailures = failureLog(logger, { failed: 'maintenance mail could not be queued', recovered: 'maintenance mail can be queued again' });
  return startPollingLoop<SubscriberMailRow>({
    // All of it goes to one SMTP server: one lane, the slots all its own.
    slots: SLOTS,
    intervalMs: config.notify.pollIntervalSeconds * 1000,
    async lease(limit, _leaveOut, isStopping) {
      if (Date.now() - prunedAt > PRUNE_EVERY_MS) {
        prunedAt = Date.now();
        await pruneSubscriberMail(db, clock.now());
        await pruneMaintenanceMail(db, clock.now());
      }
      const now = clock.now().getTime();
      if (Math.abs(now - maintenanceAt) >= MAINTENANCE_EVERY_MS) {
        maintenanceAt = now;
        await queueMaintenanceMail(db, config.baseUrl, clock.now()).then(
          () => maintenanceFailures.succeeded(),
          (error: Error) => {
            // Tried again at the next poll.
            maintenanceAt = Number.NEGATIVE_INFINITY;
            if (!isStopping()) maintenanceFailures.failed(error);
          },
        );
      }
      const rows = await leaseDueMail(db, owner, clock.now(), config.notify.leaseSeconds, limit);
      // A full lease is a burst (an update to many subscribers): fresh statistics let the next leases stop at their limit.
      await refreshStatistics(rows.length === limit).catch((error: Error) =>
        logger.warn({ err: error.message }, 'subscriber mail outbox statistics could not be refreshed'),
      );
      return rows;
    },
    deliver: (row) => deliverOne(row).catch((error: Error) => logger.error({ mail: row.uid, err: error.message }, 'subscriber mail could not be recorded')),
    failures: failureLog(logger, { failed: 'subscriber mail outbox could not be read', recovered: 'subscriber mail outbox can be read again' }),
    // Mail this daemon queues is sent as soon as it commits.
    listen: (poke) => listenForQueuedMessages(db.kysely, 'status_page_mail', poke),
  });
}
