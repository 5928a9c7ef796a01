import type { ReceivedMail, TestSmtp } from '../../support/smtp.js';

/** Waits for a mail to `to` whose subject contains `subject` (other mails to the address are skipped). */
export async function waitForMail(smtp: TestSmtp, to: string, subject: string, timeoutMs = 5000): Promise<ReceivedMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = smtp.mails.find((m) => m.to.includes(to.toLowerCase()) && m.subject.includes(subject));
    if (found) return found;
    if (Date.now() > deadline)
      throw new Error(`no mail "${subject}" to ${to} within ${timeoutMs} ms; got: ${smtp.mails.map((m) => `${m.to} ${m.subject}`).join(' | ')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The token of a dashboard link in a mail (`...#token=<token>`). */
export function linkToken(mail: ReceivedMail): string {
  const match = /#token=([A-Za-z0-9_%-]+)/.exec(mail.text);
  if (!match) throw new Error(`no link with a token in: ${mail.text}`);
  return decodeURIComponent(match[1]);
}
