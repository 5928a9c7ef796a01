import { createHmac } from 'node:crypto';

/**
 * The `X-Svc-Signature` header of a webhook delivery: `t=<unix seconds>,v1=<hex>`, where the
 * hex is HMAC-SHA256 over `<t>.<body>` keyed with the channel's signing secret. The timestamp
 * lets receivers refuse replays (docs/notifications.md shows the receiving side).
 */
export function signatureHeader(secret: string, body: string, at: Date): string {
  const t = Math.floor(at.getTime() / 1000);
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return `t=${t},v1=${v1}`;
}
