import { POP3 } from '../mail-dialogue.js';
import { mailProbe } from '../mail-probe.js';

/** POP3: greeting, optional STARTTLS or TLS, one command, goodbye (see probes/mail-probe.ts). */
export const pop3Probe = mailProbe('pop3', POP3, { plain: 110, tls: 995 });
