import { SMTP } from '../mail-dialogue.js';
import { mailProbe } from '../mail-probe.js';

/** SMTP: greeting, optional STARTTLS or TLS, one command, goodbye (see probes/mail-probe.ts). */
export const smtpProbe = mailProbe('smtp', SMTP, { plain: 25, tls: 465 });
