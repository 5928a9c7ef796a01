// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), the checksum of a Kafka record batch
// (https://kafka.apache.org/protocol#protocol_recordbatch: "The CRC is the CRC32-C"). Node 20's
// zlib has no CRC-32C, so it is computed here, a byte at a time from a table.

const TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

export function crc32c(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
