import type { Socket } from 'node:net';
import type { CheckDefinition } from '../checks/index.js';
import { connectTcp, connectTls } from './connect.js';
import { networkFailure } from './connection-errors.js';
import type { MailDialogue } from './mail-dialogue.js';
import { defineProbe, type Probe, type ProbeContext, type ProbeSuccess } from './probe.js';
import { resolveTarget } from './target-address.js';
import { tlsConnectionOptions } from './tls-options.js';

type MailType = 'smtp' | 'imap' | 'pop3';

/**
 * The executor of a mail protocol check, in plain `net`/`tls`: connect (TLS from the first byte
 * when `security` is tls), read the greeting (and upgrade with STARTTLS when asked), prove the
 * session answers a command, and leave politely. No sign-in: the check is about the service.
 */
export function mailProbe<T extends MailType>(type: T, dialogue: MailDialogue, ports: { plain: number; tls: number }): Probe<T> {
  return defineProbe({
    type,
    async run(check, context) {
      return converse(check as CheckDefinition<MailType>, dialogue, ports, context);
    },
  });
}

async function converse(
  check: CheckDefinition<MailType>,
  dialogue: MailDialogue,
  ports: { plain: number; tls: number },
  context: ProbeContext,
): Promise<ProbeSuccess> {
  const { security, ignoreTlsErrors } = check.config;
  const target = await resolveTarget(check.target, security === 'tls' ? ports.tls : ports.plain, context);
  const tls = () => ({
    ...tlsConnectionOptions(context.egress, ignoreTlsErrors),
    host: target.address,
    port: target.port,
    ...(target.servername ? { servername: target.servername } : {}),
  });
  const sockets: Socket[] = [];
  try {
    let greeting: string;
    let session: Socket;
    if (security === 'tls') {
      session = await connectTls(tls(), context);
      sockets.push(session);
      greeting = await dialogue.greeting(session, context.signal);
    } else {
      const plain = await connectTcp(target.address, target.port, context);
      sockets.push(plain);
      if (security === 'starttls') {
        greeting = await dialogue.startTls(plain, context.signal);
        session = await connectTls({ ...tls(), socket: plain }, context);
        sockets.push(session);
      } else {
        greeting = await dialogue.greeting(plain, context.signal);
        session = plain;
      }
    }
    await dialogue.goodbye(session, context.signal);
    const how = security === 'tls' ? ' (TLS)' : security === 'starttls' ? ' (STARTTLS)' : '';
    return { message: `${greeting}${how}` };
  } catch (error) {
    if (context.signal.aborted) throw context.signal.reason;
    throw networkFailure(error, target.host, target.port) ?? error;
  } finally {
    for (const socket of sockets) socket.destroy();
  }
}
