import { CorruptRecordBatch, decodeRecordBatches } from './kafka-record-batch.js';
import type { KafkaReader, KafkaWriter } from './kafka-wire.js';
import type { ProducedMessage } from './kafka-fake.js';

// The Metadata and Produce answers of the Kafka fake, field by field per version as the
// message definitions list them (https://kafka.apache.org/protocol#The_Messages_Metadata and
// #The_Messages_Produce; apache/kafka clients/src/main/resources/common/message/
// MetadataResponse.json and ProduceResponse.json).

const ERROR = { none: 0, corruptMessage: 2, unknownTopic: 3, unsupportedVersion: 35 } as const;
const BROKER_ID = 1;

/** KIP-896: Kafka 4 accepts Produce from v3, the first version carrying message format v2. */
export const PRODUCE_BASELINE = 3;

export function answerMetadata(version: number, body: KafkaReader, out: KafkaWriter, broker: { topics: string[]; port: number }): KafkaWriter {
  // v0: an empty array means all topics; v1+: a null array means all topics, an empty one none.
  const requested = body.array(() => body.string() ?? '');
  if (version >= 4) body.boolean(); // allow_auto_topic_creation (this broker creates none)
  const topics = requested === null || (version === 0 && requested.length === 0) ? broker.topics : requested;
  if (version >= 3) out.int32(0); // throttle_time_ms
  out.array([{ id: BROKER_ID, host: '127.0.0.1', port: broker.port }], (b) => {
    out.int32(b.id).string(b.host).int32(b.port);
    if (version >= 1) out.string(null); // rack
  });
  if (version >= 2) out.string('svc-kafka-fake'); // cluster_id
  if (version >= 1) out.int32(BROKER_ID); // controller_id
  out.array(topics, (topic) => {
    const known = broker.topics.includes(topic);
    out.int16(known ? ERROR.none : ERROR.unknownTopic).string(topic);
    if (version >= 1) out.boolean(false); // is_internal
    out.array(known ? [0] : [], (partition) => {
      out.int16(ERROR.none).int32(partition).int32(BROKER_ID);
      out.array([BROKER_ID], (r) => out.int32(r)); // replica_nodes
      out.array([BROKER_ID], (r) => out.int32(r)); // isr_nodes
      if (version >= 5) out.array([], () => {}); // offline_replicas
    });
  });
  return out;
}

interface PartitionAnswer {
  partition: number;
  error: number;
  baseOffset: bigint;
}

export function answerProduce(
  version: number,
  body: KafkaReader,
  out: KafkaWriter,
  broker: { topics: string[]; produced: ProducedMessage[]; refusals: string[] },
): KafkaWriter | null {
  if (version >= 3) body.string(); // transactional_id
  const acks = body.int16();
  body.int32(); // timeout_ms
  const topics =
    body.array(() => ({ topic: body.string() ?? '', partitions: body.array(() => ({ partition: body.int32(), records: body.bytes() })) ?? [] })) ?? [];
  const answers = topics.map(({ topic, partitions }) => ({
    topic,
    partitions: partitions.map(({ partition, records }): PartitionAnswer => {
      if (version < PRODUCE_BASELINE) {
        broker.refusals.push(`Produce v${version} refused: Kafka 4 accepts v${PRODUCE_BASELINE} and later (KIP-896)`);
        return { partition, error: ERROR.unsupportedVersion, baseOffset: -1n };
      }
      if (!broker.topics.includes(topic)) return { partition, error: ERROR.unknownTopic, baseOffset: -1n };
      try {
        const batches = decodeRecordBatches(records ?? Buffer.alloc(0));
        const baseOffset = BigInt(broker.produced.length);
        for (const { records: decoded } of batches) {
          for (const { key, value } of decoded) broker.produced.push({ topic, partition, version, key, value });
        }
        return { partition, error: ERROR.none, baseOffset };
      } catch (error) {
        const reason = error instanceof CorruptRecordBatch || error instanceof RangeError ? error.message : String(error);
        broker.refusals.push(`${topic}-${partition}: ${reason}`);
        return { partition, error: ERROR.corruptMessage, baseOffset: -1n };
      }
    }),
  }));
  if (acks === 0) return null; // acks 0: the broker sends no response at all
  out.array(answers, ({ topic, partitions }) => {
    out.string(topic).array(partitions, ({ partition, error, baseOffset }) => {
      out.int32(partition).int16(error).int64(baseOffset);
      if (version >= 2) out.int64(-1n); // log_append_time_ms: -1 under CreateTime
      if (version >= 5) out.int64(0n); // log_start_offset
    });
  });
  if (version >= 1) out.int32(0); // throttle_time_ms
  return out;
}
