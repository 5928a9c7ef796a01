import { isIP } from 'node:net';
import { assertCertificateCurrent, assertCertificateTime, isoDate } from '../certificate.js';
import { connectTcp, connectTls } from '../connect.js';
import { defineProbe, ProbeFailure } from '../probe.js';
import { smtpStartTls } from '../smtp-starttls.js';
import { parseHostPort } from '../target.js';
import { tlsConnectionOptions } from '../tls-options.js';

/**
 * The TLS probe: a handshake (after SMTP STARTTLS when asked), then the certificate: current,
 * trusted for the name (`serverName`, else the target host), and not expiring within
 * `expiryThresholdDays`. The handshake tolerates a bad certificate so that the message can say
 * exactly what is wrong with it.
 */
export const tlsProbe = defineProbe({
  type: 'tls',
  async run(check, context) {
    const { config } = check;
    const target = parseHostPort(check.target, 443);
    const { address } = await context.egress.resolve(target.host);
    const servername = config.serverName ?? (isIP(target.host) ? undefined : target.host);
    const plain = config.startTls ? await connectTcp(address, target.port, context) : undefined;
    try {
      if (plain) await smtpStartTls(plain, context.signal);
      const socket = await connectTls(
        {
          ...tlsConnectionOptions(context.egress, true),
          host: address,
          port: target.port,
          ...(servername ? { servername } : {}),
          ...(plain ? { socket: plain } : {}),
        },
        context,
      );
      try {
        const certificate = socket.getPeerCertificate();
        if (!certificate?.valid_to) throw new ProbeFailure('the server presented no certificate');
        const now = context.now();
        assertCertificateCurrent(certificate, now);
        if (!socket.authorized) throw new ProbeFailure(`certificate not trusted: ${socket.authorizationError}`);
        const days = assertCertificateTime(certificate, config.expiryThresholdDays, now);
        const issuer = certificate.issuer?.CN ? `, issued by ${certificate.issuer.CN}` : '';
        return { message: `certificate valid for ${days} more days (until ${isoDate(Date.parse(certificate.valid_to))})${issuer}` };
      } finally {
        socket.destroy();
      }
    } finally {
      plain?.destroy();
    }
  },
});
