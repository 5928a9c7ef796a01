import { z } from 'zod';
import { defineCheckType } from '../check-type.js';
import { ignoreTlsErrors, invert, mailSecurity } from '../fields.js';
import { hostPortTarget } from '../targets.js';

interface MailProtocol<Name extends string> {
  type: Name;
  title: string;
  plainPort: number;
  tlsPort: number;
  host: string;
}

/**
 * Declares a mail protocol check (SMTP, POP3, IMAP): the three differ only in name and ports,
 * and the runner speaks each protocol's greeting and STARTTLS command.
 */
export function mailServerCheckType<const Name extends string>(protocol: MailProtocol<Name>) {
  const { type, title, plainPort, tlsPort, host } = protocol;
  return defineCheckType({
    type,
    title: `${title} server`,
    description: `Connects to the ${title} server, negotiates the configured security and checks its greeting.`,
    target: hostPortTarget(`The server; the port defaults to ${plainPort}, or ${tlsPort} when security is tls.`, `${host}:${plainPort}`, plainPort),
    config: z.strictObject({
      security: mailSecurity,
      ignoreTlsErrors,
      invert,
    }),
    sample: { name: `${title} server`, target: `${host}:${tlsPort}`, config: { security: 'tls' } },
  });
}
