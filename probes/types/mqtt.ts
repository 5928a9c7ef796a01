import { randomBytes } from 'node:crypto';
import { connect, type IClientOptions } from 'mqtt';
import { passwordOf } from '../credentials.js';
import { networkFailure } from '../connection-errors.js';
import { assertJsonQueries } from '../json-queries.js';
import { defineProbe, ProbeFailure } from '../probe.js';
import { failureMessage } from '../failure-message.js';
import { resolveTarget, type TargetAddress } from '../target-address.js';
import { formatHostPort } from '../target.js';
import { keywordFailure } from '../text-match.js';
import { onAbort } from '../abort.js';

// CONNACK return codes of MQTT 3.1.1 (4, 5) and reason codes of MQTT 5 (134, 135) about signing in.
const BAD_CREDENTIALS = new Set([4, 134]);
const NOT_AUTHORIZED = new Set([5, 135]);

/**
 * MQTT through `mqtt` (MQTT.js, the maintained client for Node): connects, subscribes to the
 * topic and judges the first message that arrives (retained messages arrive at once) by the
 * keyword and the JSON queries. No message before the timeout is a timeout.
 */
export const mqttProbe = defineProbe({
  type: 'mqtt',
  async run(check, context) {
    const { config } = check;
    const target = await resolveTarget(check.target, 1883, context);
    const websocket = config.websocketPath !== undefined;
    const client = connect({
      protocol: websocket ? (config.useTls ? 'wss' : 'ws') : config.useTls ? 'mqtts' : 'mqtt',
      host: target.address,
      port: target.port,
      path: config.websocketPath,
      servername: target.servername,
      rejectUnauthorized: !config.ignoreTlsErrors,
      username: config.username,
      password: passwordOf(config),
      clientId: `svc-${randomBytes(8).toString('hex')}`,
      clean: true,
      connectTimeout: context.timeoutMs,
      reconnectPeriod: 0,
      // Over WebSocket the URL carries the address: the name goes in the Host header and, over
      // TLS, in SNI and the certificate check (MQTT.js passes neither to the socket itself).
      ...(websocket && target.servername ? { wsOptions: websocketOptions(target, config.ignoreTlsErrors) } : {}),
    });
    const stopListening = onAbort(context.signal, () => client.end(true));
    try {
      const { topic, payload } = await new Promise<{ topic: string; payload: Buffer }>((resolve, reject) => {
        client.on('error', reject);
        client.on('close', () => reject(new ProbeFailure(`connection closed by ${formatHostPort(target)}`)));
        client.on('message', (topic, payload) => resolve({ topic, payload }));
        client.on('connect', () => {
          client.subscribe(config.topic, { qos: 0 }, (error, granted) => {
            if (error) reject(error);
            else if (granted?.some((grant) => grant.qos === 128)) reject(new ProbeFailure(`subscription to "${config.topic}" refused`));
          });
        });
      });
      const text = payload.toString('utf8');
      const problem = keywordFailure(text, config.keyword, 'message');
      if (problem) throw new ProbeFailure(`message on ${topic}: ${problem}`);
      if (config.jsonQueries.length > 0) {
        await assertJsonQueries(parseMessage(text, topic), config.jsonQueries, context).catch((error: ProbeFailure) => {
          throw new ProbeFailure(`message on ${topic}: ${error.message}`);
        });
      }
      return { message: `message on ${topic}` };
    } catch (error) {
      if (context.signal.aborted) throw context.signal.reason;
      if (error instanceof ProbeFailure) throw error;
      throw networkFailure(error, target.host, target.port) ?? new ProbeFailure(describe(error, config.username));
    } finally {
      stopListening();
      client.end(true);
    }
  },
});

/** `ws` options (the type MQTT.js declares is narrower than what it hands to `ws`). */
function websocketOptions(target: TargetAddress, ignoreTlsErrors: boolean): IClientOptions['wsOptions'] {
  const options = { servername: target.servername, rejectUnauthorized: !ignoreTlsErrors, headers: { host: formatHostPort(target) } };
  return options as IClientOptions['wsOptions'];
}

function parseMessage(text: string, topic: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ProbeFailure(`message on ${topic} is not JSON`);
  }
}

function describe(error: unknown, username: string | undefined): string {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'number' && BAD_CREDENTIALS.has(code)) {
    return username ? `authentication failed for user "${username}"` : 'authentication failed';
  }
  if (typeof code === 'number' && NOT_AUTHORIZED.has(code)) {
    // Brokers (Mosquitto among them) answer "not authorized" to a wrong password too.
    return username ? `user "${username}" not authorized (wrong password or no access)` : 'not authorized (the broker may require a user name and password)';
  }
  return failureMessage(error);
}
