import type { Session, Varbind } from 'net-snmp';
import { onAbort } from '../abort.js';
import { asText, compare, compareAsText } from '../compare.js';
import { defineProbe, ProbeFailure } from '../probe.js';
import { parseHostPort } from '../target.js';

/**
 * One GET through `net-snmp`, the maintained pure-JavaScript SNMP v1/v2c/v3 implementation.
 * The community (v1/v2c) and the v3 passphrases are secrets, substituted before the run:
 * `authKey` (SHA) and `privKey` (AES) give authPriv, `authKey` alone authNoPriv, neither noAuthNoPriv.
 */
export const snmpProbe = defineProbe({
  type: 'snmp',
  async run(check, context) {
    const { config } = check;
    const target = parseHostPort(check.target, 161);
    const { address, family } = await context.egress.resolve(target.host);
    const snmp = await import('net-snmp');
    // UDP has no connection to refuse: an agent that ignores a wrong community or user is only
    // silence. The driver gives up a little before the deadline, so that the result says so.
    const timeout = Math.max(50, Math.floor(context.timeoutMs * 0.9));
    const options = { port: target.port, retries: 0, timeout, transport: family === 6 ? 'udp6' : 'udp4' } as const;
    let session: Session;
    if (config.version === '3') {
      if (!config.v3Username) throw new ProbeFailure('SNMPv3 needs v3Username');
      const level = config.authKey ? (config.privKey ? snmp.SecurityLevel.authPriv : snmp.SecurityLevel.authNoPriv) : snmp.SecurityLevel.noAuthNoPriv;
      session = snmp.createV3Session(
        address,
        {
          name: config.v3Username,
          level,
          ...(config.authKey ? { authProtocol: snmp.AuthProtocols.sha, authKey: config.authKey } : {}),
          ...(config.privKey ? { privProtocol: snmp.PrivProtocols.aes, privKey: config.privKey } : {}),
        },
        options,
      );
    } else {
      const version = config.version === '1' ? snmp.Version1 : snmp.Version2c;
      session = snmp.createSession(address, config.community || 'public', { ...options, version });
    }
    session.on('error', () => {}); // a socket failure also fails the pending request, which says it
    const forget = onAbort(context.signal, () => session.close());
    try {
      const varbind = await new Promise<Varbind>((resolve, reject) => {
        session.get([config.oid.replace(/^\./, '')], (error, varbinds) => (error ? reject(error) : resolve(varbinds[0])));
      });
      if (!varbind || snmp.isVarbindError(varbind)) {
        throw new ProbeFailure(`no value at ${config.oid}: ${snmp.ObjectType[varbind?.type] ?? 'empty answer'}`);
      }
      const value = varbindValue(varbind.value);
      const shown = asText(value).slice(0, 80);
      const holds = config.condition?.compareAs === 'text' ? compareAsText : compare;
      if (config.condition && !holds(value, config.condition.operator, config.condition.expected)) {
        throw new ProbeFailure(`${config.oid} is ${shown}, expected ${config.condition.operator} ${config.condition.expected}`);
      }
      return { message: `${config.oid} = ${shown}` };
    } catch (error) {
      if (context.signal.aborted) throw context.signal.reason;
      throw describe(error);
    } finally {
      forget();
      try {
        session.close();
      } catch {
        // Already closed by the deadline.
      }
    }
  },
});

/** Octet strings as text (hex when not printable), big counters as numbers or decimal text. */
function varbindValue(value: unknown): unknown {
  if (Buffer.isBuffer(value)) {
    const text = value.toString('utf8');
    return /^[\p{L}\p{N}\p{P}\p{S}\p{Zs}\t\r\n]*$/u.test(text) ? text : value.toString('hex');
  }
  if (typeof value === 'bigint') return value.toString();
  return value;
}

/** net-snmp's errors in a plain sentence: a timeout is usually a wrong community or credentials. */
function describe(error: unknown): Error {
  if (error instanceof ProbeFailure) return error;
  const { name, message } = error as { name?: string; message?: string };
  if (name === 'RequestTimedOutError') return new ProbeFailure('no SNMP answer (wrong community or credentials, or no agent)');
  if (name === 'RequestFailedError') return new ProbeFailure(`the agent refused the request: ${message}`);
  if (name === 'ResponseInvalidError') return new ProbeFailure(`invalid SNMP answer: ${message?.split('\n')[0]}`);
  return error as Error;
}
