/** Seconds between the NTP era (1900-01-01) and the Unix epoch. */
const NTP_EPOCH_OFFSET = 2_208_988_800;

/** An SNTP client request (RFC 4330): version 4, mode 3 (client), our clock in the transmit field. */
export function sntpRequest(nowMs: number): Buffer {
  const packet = Buffer.alloc(48);
  packet[0] = (0 << 6) | (4 << 3) | 3;
  writeTimestamp(packet, 40, nowMs);
  return packet;
}

/** What an NTP server's reply says, with the clock offset from our send and receive times. */
export interface SntpAnswer {
  leap: number;
  mode: number;
  stratum: number;
  /** Root dispersion, in milliseconds. */
  rootDispersionMs: number;
  /** The reference id as text: a kiss code at stratum 0, a source name at stratum 1. */
  referenceId: string;
  /** Whether the reply's originate timestamp echoes the request's transmit timestamp. */
  answersRequest: boolean;
  /** How far the server's clock is from ours, in milliseconds (positive: the server is ahead). */
  offsetMs: number;
}

/** Reads a server reply to `request`, received at `receivedMs` (our clock). */
export function parseSntpReply(reply: Buffer, request: Buffer, receivedMs: number): SntpAnswer {
  if (reply.length < 48) throw new Error(`an NTP reply has 48 bytes, this one ${reply.length}`);
  const sent = readTimestamp(request, 40);
  const serverReceived = readTimestamp(reply, 32);
  const serverSent = readTimestamp(reply, 40);
  return {
    leap: reply[0] >> 6,
    mode: reply[0] & 0x07,
    stratum: reply[1],
    rootDispersionMs: (reply.readUInt32BE(8) / 65_536) * 1000,
    referenceId: reply.subarray(12, 16).toString('latin1').replace(/\0+$/, ''),
    answersRequest: reply.subarray(24, 32).equals(request.subarray(40, 48)),
    offsetMs: (serverReceived - sent + (serverSent - receivedMs)) / 2,
  };
}

function writeTimestamp(packet: Buffer, offset: number, ms: number): void {
  const seconds = Math.floor(ms / 1000);
  packet.writeUInt32BE(seconds + NTP_EPOCH_OFFSET, offset);
  packet.writeUInt32BE(Math.round(((ms - seconds * 1000) / 1000) * 2 ** 32) >>> 0, offset + 4);
}

/** An NTP timestamp in Unix milliseconds (era 0, which runs until 2036). */
function readTimestamp(packet: Buffer, offset: number): number {
  const seconds = packet.readUInt32BE(offset) - NTP_EPOCH_OFFSET;
  return seconds * 1000 + (packet.readUInt32BE(offset + 4) / 2 ** 32) * 1000;
}
