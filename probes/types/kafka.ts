import { connect as netConnect, isIP, Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { Kafka, logLevel, type ISocketFactory, type SASLOptions } from 'kafkajs';
import { passwordOf } from '../credentials.js';
import { networkFailure } from '../connection-errors.js';
import { defineProbe, ProbeFailure, type ProbeContext } from '../probe.js';
import { failureMessage } from '../failure-message.js';
import { formatHostPort, parseHostPort } from '../target.js';
import { onAbort } from '../abort.js';

/**
 * Kafka through `kafkajs` (pure JavaScript, the most used Node client): connects a producer to
 * the bootstrap brokers, produces the message to the topic and succeeds when the cluster
 * acknowledges it (acks from all in-sync replicas). Every broker connection, those learned from
 * the cluster's metadata included, goes through the egress policy.
 */
export const kafkaProbe = defineProbe({
  type: 'kafka',
  async run(check, context) {
    const { config } = check;
    const brokers = [check.target, ...config.additionalBrokers].map((broker) => parseHostPort(broker, 9092));
    // The bootstrap brokers are checked first, so that a refused one reads as such at once.
    for (const { host } of brokers) await context.egress.resolve(host);
    const sockets = new Set<Socket>();
    const kafka = new Kafka({
      clientId: 'svc',
      brokers: brokers.map(formatHostPort),
      ssl: config.useTls ? { rejectUnauthorized: !config.ignoreTlsErrors } : false,
      sasl: saslOptions(config.sasl),
      connectionTimeout: context.timeoutMs,
      authenticationTimeout: context.timeoutMs,
      requestTimeout: context.timeoutMs,
      enforceRequestTimeout: true,
      retry: { retries: 0 },
      logLevel: logLevel.NOTHING,
      socketFactory: egressSocketFactory(context, sockets),
    });
    const producer = kafka.producer({ allowAutoTopicCreation: config.allowAutoTopicCreation, retry: { retries: 0 } });
    const destroyAll = () => {
      for (const socket of sockets) socket.destroy();
    };
    const stopListening = onAbort(context.signal, () => {
      destroyAll();
      void producer.disconnect().catch(() => {});
    });
    try {
      await producer.connect();
      const [record] = await producer.send({ topic: config.topic, messages: [{ value: config.message }], acks: -1, timeout: context.timeoutMs });
      return { message: `produced to ${config.topic}${record ? ` partition ${record.partition}` : ''}` };
    } catch (error) {
      if (context.signal.aborted) throw context.signal.reason;
      const first = brokers[0];
      throw networkFailure(error, first.host, first.port) ?? new ProbeFailure(describe(error, config.sasl?.username, config.allowAutoTopicCreation));
    } finally {
      stopListening();
      if (!context.signal.aborted) await producer.disconnect().catch(() => {});
      destroyAll();
    }
  },
});

function saslOptions(sasl: { mechanism: SASLOptions['mechanism']; username?: string } | undefined): SASLOptions | undefined {
  if (!sasl) return undefined;
  const password = passwordOf(sasl) ?? '';
  const username = sasl.username ?? '';
  if (sasl.mechanism === 'aws') {
    // AWS IAM: the user name is the access key id and the password the secret access key.
    return { mechanism: 'aws', authorizationIdentity: username, accessKeyId: username, secretAccessKey: password };
  }
  return { mechanism: sasl.mechanism, username, password } as SASLOptions;
}

/** kafkajs's default socket factory, with the egress policy applied to every host. */
function egressSocketFactory(context: ProbeContext, sockets: Set<Socket>): ISocketFactory {
  return ({ host, port, ssl, onConnect }) => {
    // Node skips `lookup` for an IP literal, so a literal is judged here.
    const refusal = isIP(host) ? context.egress.refusal(host) : undefined;
    let socket: Socket;
    if (refusal) {
      socket = new Socket();
      process.nextTick(() => socket.destroy(Object.assign(new Error(refusal), { code: 'EGRESS_REFUSED' })));
    } else if (ssl) {
      const servername = isIP(host) ? undefined : host;
      socket = tlsConnect({ host, port, lookup: context.egress.lookup, servername, ...ssl }, onConnect);
    } else {
      socket = netConnect({ host, port, lookup: context.egress.lookup }, onConnect);
    }
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    return socket;
  };
}

/** kafkajs errors carry a type (the Kafka error code's name), under retry wrappers when retried. */
function describe(error: unknown, username: string | undefined, autoCreate: boolean): string {
  const chain: Array<{ name?: string; type?: string }> = [];
  for (let current = error as { name?: string; type?: string; cause?: unknown; originalError?: unknown } | undefined; current && chain.length < 5; ) {
    chain.push(current);
    current = (current.cause ?? current.originalError) as typeof current;
  }
  const is = (type: string) => chain.some((link) => link.type === type);
  if (chain.some((link) => link.name === 'KafkaJSSASLAuthenticationError') || is('SASL_AUTHENTICATION_FAILED')) {
    return `authentication failed for user "${username ?? ''}"`;
  }
  if (is('UNKNOWN_TOPIC_OR_PARTITION')) return autoCreate ? 'unknown topic' : 'unknown topic (and automatic topic creation is off)';
  if (is('TOPIC_AUTHORIZATION_FAILED')) return 'not authorized to produce to the topic';
  return failureMessage(error);
}
