import type { Config } from '../config/config.js';
import type { Metrics } from '../metrics/metrics.js';
import type { ChannelType } from '../../contract/notification-channels.js';
import type { EgressPolicy } from '../../probes/egress.js';
import { DeliveryError } from './delivery-error.js';
import type { ChannelConfig, Delivery } from './channels/channel-type.js';
import { CHANNEL_TYPE_DEFINITIONS } from './channels/index.js';
import { createHttpSender } from './http-sender.js';
import { createMailSender } from './mail-sender.js';
import { renderMessage, type NotificationFacts } from './message.js';

/** The result of one delivery attempt. */
export type DeliveryResult = { ok: true; responseCode: number | null } | { ok: false; error: DeliveryError };

/** Delivers messages to channels; shared by the dispatcher and the channel test route. */
export interface Notifier {
  deliver(input: { uid: string; type: ChannelType; config: ChannelConfig; facts: NotificationFacts; now: Date }): Promise<DeliveryResult>;
  close(): Promise<void>;
}

/** A Notifier whose HTTP goes through the egress policy; each attempt is counted in `svc_notification_deliveries_total`. */
export function createNotifier(config: Config, egress: EgressPolicy, metrics: Metrics): Notifier {
  const context = {
    http: createHttpSender(egress, config.notify.timeoutSeconds * 1000),
    mail: createMailSender(config.mail.smtpUrl, config.mail.from),
    apiUrls: config.notify.apiUrls,
  };
  return {
    async deliver({ uid, type, config: channelConfig, facts, now }) {
      const delivery: Delivery = { uid, facts, message: renderMessage(facts, config.baseUrl), config: channelConfig, now };
      try {
        const { responseCode } = await CHANNEL_TYPE_DEFINITIONS[type].deliver(delivery, context);
        metrics.notificationDeliveries.inc({ channel_type: type, result: 'sent' });
        return { ok: true, responseCode };
      } catch (error) {
        metrics.notificationDeliveries.inc({ channel_type: type, result: 'failed' });
        // Anything else than a DeliveryError is a bug here: its message may hold anything, so it is not shown.
        return { ok: false, error: error instanceof DeliveryError ? error : new DeliveryError('the delivery failed unexpectedly') };
      }
    },
    async close() {
      context.mail.close();
      await context.http.close();
    },
  };
}
