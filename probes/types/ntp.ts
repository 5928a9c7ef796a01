import { createSocket } from 'node:dgram';
import { onAbort } from '../abort.js';
import { defineProbe, ProbeFailure } from '../probe.js';
import { parseSntpReply, sntpRequest, type SntpAnswer } from '../sntp-packet.js';
import { parseHostPort } from '../target.js';

/**
 * NTP: one SNTP exchange over `dgram` (the protocol is a 48-byte datagram each way, no package
 * needed), then the answer's quality: a synchronized server, stratum, root dispersion and our
 * clock's offset from it within the check's limits.
 */
export const ntpProbe = defineProbe({
  type: 'ntp',
  async run(check, context) {
    const { config } = check;
    const target = parseHostPort(check.target, 123);
    const { address, family } = await context.egress.resolve(target.host);
    const socket = createSocket(family === 6 ? 'udp6' : 'udp4');
    const forget = onAbort(context.signal, () => socket.close());
    const request = sntpRequest(context.now());
    try {
      const answer = await new Promise<SntpAnswer>((resolve, reject) => {
        // A connected socket hears "port unreachable" as an error: a quick down, not a timeout.
        socket.on('error', reject);
        socket.on('message', (reply) => {
          try {
            const parsed = parseSntpReply(reply, request, context.now());
            // Anything that does not echo our request is not an answer to it (RFC 4330 §5).
            if (parsed.answersRequest) resolve(parsed);
          } catch (error) {
            reject(new ProbeFailure((error as Error).message));
          }
        });
        socket.connect(target.port, address, () => socket.send(request, (error) => error && reject(error)));
      });
      return { message: judge(answer, config) };
    } catch (error) {
      if (context.signal.aborted) throw context.signal.reason;
      throw error;
    } finally {
      forget();
      try {
        socket.close();
      } catch {
        // Already closed by the deadline.
      }
    }
  },
});

/** The up message, or a failure saying which limit the answer breaks. */
function judge(answer: SntpAnswer, limits: { maxOffsetMs: number; maxStratum: number; maxRootDispersionMs: number }): string {
  if (answer.mode !== 4 && answer.mode !== 5) throw new ProbeFailure(`not an NTP server reply (mode ${answer.mode})`);
  if (answer.stratum === 0) throw new ProbeFailure(`the server refused to answer (kiss code ${JSON.stringify(answer.referenceId)})`);
  if (answer.leap === 3) throw new ProbeFailure('the server clock is not synchronized');
  const offset = Math.round(answer.offsetMs);
  const dispersion = Math.round(answer.rootDispersionMs);
  if (answer.stratum > limits.maxStratum) throw new ProbeFailure(`stratum ${answer.stratum}, above ${limits.maxStratum}`);
  if (Math.abs(answer.offsetMs) > limits.maxOffsetMs) throw new ProbeFailure(`clock offset ${offset} ms, beyond ±${limits.maxOffsetMs} ms`);
  if (answer.rootDispersionMs > limits.maxRootDispersionMs) {
    throw new ProbeFailure(`root dispersion ${dispersion} ms, above ${limits.maxRootDispersionMs} ms`);
  }
  return `stratum ${answer.stratum}, offset ${offset} ms, root dispersion ${dispersion} ms`;
}
