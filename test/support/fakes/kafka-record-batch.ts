import { crc32c } from './crc32c.js';
import { KafkaReader } from './kafka-wire.js';

// Decodes the record batches of a Produce request (v3+ carry message format v2 only), as the
// protocol guide lays them out (https://kafka.apache.org/documentation/#recordbatch and
// https://kafka.apache.org/protocol#protocol_recordbatch):
//
//   baseOffset int64, batchLength int32, partitionLeaderEpoch int32, magic int8 (= 2),
//   crc uint32 (CRC-32C of everything from attributes to the end of the batch), attributes int16,
//   lastOffsetDelta int32, baseTimestamp int64, maxTimestamp int64, producerId int64,
//   producerEpoch int16, baseSequence int32, records: int32 count, then each record:
//     length varint, attributes int8, timestampDelta varlong, offsetDelta varint,
//     keyLength varint, key, valueLength varint, value, headers: varint count of
//     (headerKeyLength varint, headerKey, headerValueLength varint, headerValue).

export interface DecodedRecord {
  offsetDelta: number;
  timestamp: bigint;
  key: Buffer | null;
  value: Buffer | null;
  headers: Array<{ key: string; value: Buffer | null }>;
}

export interface DecodedBatch {
  baseOffset: bigint;
  producerId: bigint;
  producerEpoch: number;
  baseSequence: number;
  records: DecodedRecord[];
}

/** Why the broker refuses a record set; Kafka answers such a partition with CORRUPT_MESSAGE (2). */
export class CorruptRecordBatch extends Error {}

const MAGIC_V2 = 2;
/** Bytes from the start of a batch to its attributes: the part the CRC does not cover. */
const CRC_COVERS_FROM = 8 + 4 + 4 + 1 + 4;

/** Every batch in one partition's record set. */
export function decodeRecordBatches(recordSet: Buffer): DecodedBatch[] {
  const batches: DecodedBatch[] = [];
  const reader = new KafkaReader(recordSet);
  while (reader.remaining > 0) {
    const start = reader.offset;
    if (reader.remaining < CRC_COVERS_FROM) throw new CorruptRecordBatch('record set ends inside a batch header');
    const baseOffset = reader.int64();
    const batchLength = reader.int32(); // counts the bytes after this field
    const end = reader.offset + batchLength;
    if (end > recordSet.length) throw new CorruptRecordBatch(`batch length ${batchLength} runs past the record set`);
    reader.int32(); // partitionLeaderEpoch
    const magic = reader.int8();
    if (magic !== MAGIC_V2) throw new CorruptRecordBatch(`message format v${magic} (Kafka 4 accepts v2 only, KIP-724)`);
    const crc = reader.uint32();
    const computed = crc32c(recordSet.subarray(start + CRC_COVERS_FROM, end));
    if (crc !== computed) {
      throw new CorruptRecordBatch(`CRC-32C mismatch: batch says ${hex(crc)}, its bytes give ${hex(computed)}`);
    }
    const attributes = reader.int16();
    if ((attributes & 0x07) !== 0) throw new CorruptRecordBatch(`compressed batch (codec ${attributes & 0x07}) is not decoded by this fake`);
    reader.int32(); // lastOffsetDelta
    const baseTimestamp = reader.int64();
    reader.int64(); // maxTimestamp
    const producerId = reader.int64();
    const producerEpoch = reader.int16();
    const baseSequence = reader.int32();
    const count = reader.int32();
    const records = Array.from({ length: count }, () => decodeRecord(reader, baseTimestamp));
    if (reader.offset !== end) throw new CorruptRecordBatch(`records end at ${reader.offset - start}, the batch at ${end - start}`);
    batches.push({ baseOffset, producerId, producerEpoch, baseSequence, records });
  }
  return batches;
}

function decodeRecord(reader: KafkaReader, baseTimestamp: bigint): DecodedRecord {
  const length = reader.varint();
  const end = reader.offset + length;
  reader.int8(); // attributes (unused)
  const timestamp = baseTimestamp + reader.varlong();
  const offsetDelta = reader.varint();
  const key = reader.varBytes();
  const value = reader.varBytes();
  const headers = Array.from({ length: reader.varint() }, () => ({ key: reader.varBytes()?.toString('utf8') ?? '', value: reader.varBytes() }));
  if (reader.offset !== end) throw new CorruptRecordBatch(`record length ${length} does not match its fields`);
  return { offsetDelta, timestamp, key, value, headers };
}

const hex = (n: number) => `0x${n.toString(16).padStart(8, '0')}`;
