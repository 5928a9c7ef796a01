/**
 * The standard gRPC health-checking protocol (grpc/grpc health/v1/health.proto), declared by
 * hand: its two messages have one field each, so a protobuf compiler or loader would be more
 * code than the encoding itself.
 */
export const HEALTH_CHECK_PATH = '/grpc.health.v1.Health/Check';

/** HealthCheckResponse.ServingStatus by number. */
export const SERVING_STATUS = ['UNKNOWN', 'SERVING', 'NOT_SERVING', 'SERVICE_UNKNOWN'] as const;

/** HealthCheckRequest { string service = 1; } */
export function encodeHealthRequest(service: string): Buffer {
  if (service === '') return Buffer.alloc(0);
  const bytes = Buffer.from(service, 'utf8');
  return Buffer.concat([Buffer.from([0x0a]), varint(bytes.length), bytes]);
}

/** HealthCheckResponse { ServingStatus status = 1; }: the status name (unknown numbers as such). */
export function decodeHealthResponse(message: Buffer): string {
  let status = 0;
  for (let offset = 0; offset < message.length; ) {
    const [key, afterKey] = readVarint(message, offset);
    const wireType = key & 0x07;
    if (wireType === 0) {
      const [value, next] = readVarint(message, afterKey);
      if (key >>> 3 === 1) status = value;
      offset = next;
    } else if (wireType === 2) {
      const [length, next] = readVarint(message, afterKey);
      offset = next + length;
    } else if (wireType === 1 || wireType === 5) {
      offset = afterKey + (wireType === 1 ? 8 : 4);
    } else {
      throw new Error('not a HealthCheckResponse');
    }
  }
  return SERVING_STATUS[status] ?? `status ${status}`;
}

function varint(value: number): Buffer {
  const bytes: number[] = [];
  while (value > 0x7f) {
    bytes.push((value & 0x7f) | 0x80);
    value >>>= 7;
  }
  bytes.push(value);
  return Buffer.from(bytes);
}

function readVarint(buffer: Buffer, offset: number): [number, number] {
  let value = 0;
  for (let shift = 0; shift < 35; shift += 7) {
    if (offset >= buffer.length) throw new Error('truncated HealthCheckResponse');
    const byte = buffer[offset++];
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return [value, offset];
  }
  throw new Error('malformed HealthCheckResponse');
}
