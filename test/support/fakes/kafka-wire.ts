// Primitive types of the Kafka protocol, big-endian, as the protocol guide defines them
// (https://kafka.apache.org/protocol#protocol_types): INT8..INT64, STRING/NULLABLE_STRING with
// an INT16 length, BYTES with an INT32 length, ARRAY with an INT32 count, and the zig-zag
// VARINT/VARLONG used inside a record batch (the same encoding as Protocol Buffers).

export class KafkaWriter {
  private parts: Buffer[] = [];
  private fixed(size: number, write: (b: Buffer) => void) {
    const b = Buffer.alloc(size);
    write(b);
    this.parts.push(b);
    return this;
  }
  int8(value: number) {
    return this.fixed(1, (b) => b.writeInt8(value));
  }
  int16(value: number) {
    return this.fixed(2, (b) => b.writeInt16BE(value));
  }
  int32(value: number) {
    return this.fixed(4, (b) => b.writeInt32BE(value));
  }
  int64(value: bigint) {
    return this.fixed(8, (b) => b.writeBigInt64BE(value));
  }
  boolean(value: boolean) {
    return this.int8(value ? 1 : 0);
  }
  string(value: string | null) {
    if (value === null) return this.int16(-1);
    const bytes = Buffer.from(value);
    this.int16(bytes.length);
    this.parts.push(bytes);
    return this;
  }
  bytes(value: Buffer) {
    this.int32(value.length);
    this.parts.push(value);
    return this;
  }
  array<T>(items: T[], write: (item: T) => void) {
    this.int32(items.length);
    items.forEach(write);
    return this;
  }
  done() {
    return Buffer.concat(this.parts);
  }
}

export class KafkaReader {
  constructor(
    readonly buffer: Buffer,
    public offset = 0,
  ) {}
  get remaining() {
    return this.buffer.length - this.offset;
  }
  private fixed<T>(size: number, read: (at: number) => T): T {
    if (this.offset + size > this.buffer.length) throw new RangeError('read past the end of the message');
    const value = read(this.offset);
    this.offset += size;
    return value;
  }
  int8() {
    return this.fixed(1, (at) => this.buffer.readInt8(at));
  }
  int16() {
    return this.fixed(2, (at) => this.buffer.readInt16BE(at));
  }
  int32() {
    return this.fixed(4, (at) => this.buffer.readInt32BE(at));
  }
  uint32() {
    return this.fixed(4, (at) => this.buffer.readUInt32BE(at));
  }
  int64() {
    return this.fixed(8, (at) => this.buffer.readBigInt64BE(at));
  }
  boolean() {
    return this.int8() !== 0;
  }
  raw(length: number) {
    return this.fixed(length, (at) => this.buffer.subarray(at, at + length));
  }
  string() {
    const length = this.int16();
    return length < 0 ? null : this.raw(length).toString('utf8');
  }
  bytes() {
    const length = this.int32();
    return length < 0 ? null : this.raw(length);
  }
  /** ARRAY; a count of -1 is a null array (Metadata v1+ uses it for "all topics"). */
  array<T>(read: () => T): T[] | null {
    const n = this.int32();
    return n < 0 ? null : Array.from({ length: n }, read);
  }
  /** Zig-zag VARLONG (up to 10 bytes), as a bigint. */
  varlong(): bigint {
    let raw = 0n;
    for (let shift = 0n; ; shift += 7n) {
      if (shift > 63n) throw new RangeError('varint longer than 10 bytes');
      const byte = BigInt(this.int8() & 0xff);
      raw |= (byte & 0x7fn) << shift;
      if ((byte & 0x80n) === 0n) break;
    }
    return (raw >> 1n) ^ -(raw & 1n);
  }
  /** Zig-zag VARINT. */
  varint(): number {
    return Number(this.varlong());
  }
  /** A varint length, then that many bytes; -1 is null (keys, values and header values of a record). */
  varBytes(): Buffer | null {
    const length = this.varint();
    return length < 0 ? null : this.raw(length);
  }
}
