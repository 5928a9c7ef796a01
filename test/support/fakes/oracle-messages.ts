// TNS packets and TTC messages of the Oracle fake, laid out as the thin-mode driver (oracledb)
// decodes them (its lib/thin/protocol): CONNECT/ACCEPT/REFUSE/DATA packets, the protocol and
// data type negotiation answers, a row of `SELECT 1 FROM DUAL`, errors and the call status.

export const PACKET = { connect: 1, accept: 2, refuse: 4, data: 6 } as const;
export const MESSAGE = { protocol: 1, dataTypes: 2, function: 3, error: 4, rowHeader: 6, rowData: 7, parameter: 8, status: 9, describeInfo: 16 } as const;
export const FUNCTION = { authPhaseOne: 118, authPhaseTwo: 115, execute: 94 } as const;
const TNS_VERSION = 315; // large SDU; no data flags, end-of-request or fast authentication
export const VERIFIER_12C = 0x4815;
export const VGEN_COUNT = 4096;
export const SDER_COUNT = 3;

/** TTC encodings, as the driver reads them. */
export class Writer {
  private readonly parts: Buffer[] = [];
  byte(value: number) {
    this.parts.push(Buffer.from([value]));
    return this;
  }
  raw(bytes: Buffer) {
    this.parts.push(bytes);
    return this;
  }
  /** UB2/UB4/UB8: a length byte, then the value big-endian in as few bytes as it needs. */
  ub(value: number) {
    if (value === 0) return this.byte(0);
    const size = value <= 0xff ? 1 : value <= 0xffff ? 2 : 4;
    const bytes = Buffer.alloc(size);
    bytes.writeUIntBE(value, 0, size);
    return this.byte(size).raw(bytes);
  }
  /** A string with a one-byte length (all the values here are short). */
  str(text: string) {
    const bytes = Buffer.from(text);
    return this.byte(bytes.length).raw(bytes);
  }
  keyValue(key: string, value: string, flag = 0) {
    this.ub(Buffer.byteLength(key)).str(key).ub(Buffer.byteLength(value));
    if (value) this.str(value);
    return this.ub(flag);
  }
  done() {
    return Buffer.concat(this.parts);
  }
}

/** A DATA packet after ACCEPT: 4-byte length (large SDU), type, flags, checksum, data flags. */
export function dataPacket(payload: Buffer): Buffer {
  const head = Buffer.alloc(10);
  head.writeUInt32BE(10 + payload.length, 0);
  head.writeUInt8(PACKET.data, 4);
  return Buffer.concat([head, payload]);
}

export function refusePacket(code: number): Buffer {
  const data = Buffer.from(`(DESCRIPTION=(TMP=)(VSNNUM=0)(ERR=${code})(ERROR_STACK=(ERROR=(CODE=${code})(EMFI=4))))`, 'ascii');
  const packet = Buffer.alloc(12 + data.length);
  packet.writeUInt16BE(packet.length, 0);
  packet.writeUInt8(PACKET.refuse, 4);
  packet.writeUInt8(0x22, 8);
  packet.writeUInt16BE(data.length, 10);
  data.copy(packet, 12);
  return packet;
}

export function acceptPacket(): Buffer {
  const packet = Buffer.alloc(41);
  packet.writeUInt16BE(packet.length, 0);
  packet.writeUInt8(PACKET.accept, 4);
  packet.writeUInt16BE(TNS_VERSION, 8);
  packet.writeUInt16BE(8192, 12); // SDU
  packet.writeUInt16BE(65535, 14); // TDU
  packet.writeUInt16BE(0x0100, 16);
  packet.writeUInt16BE(41, 20);
  packet.writeUInt8(0x08, 23); // no network (ANO) services
  packet.writeUInt32BE(8192, 32); // large SDU
  packet.writeUInt32BE(65535, 36); // large TDU
  return packet;
}

export function protocolAnswer(): Buffer {
  const fdo = Buffer.alloc(11);
  fdo.writeUInt16BE(2000, 9); // national character set AL16UTF16
  const compileCaps = Buffer.alloc(8);
  compileCaps[7] = 8; // TTC field version 12.2
  const runtimeCaps = Buffer.alloc(7);
  runtimeCaps[1] = 0x01; // time zone in the data type answer
  const charset = Buffer.alloc(2);
  charset.writeUInt16LE(873); // AL32UTF8
  return new Writer()
    .byte(MESSAGE.protocol)
    .byte(6)
    .byte(0)
    .raw(Buffer.from('fake-oracle\0'))
    .raw(charset)
    .byte(0)
    .raw(Buffer.from([0, 0])) // no elements
    .raw(Buffer.from([0, fdo.length]))
    .raw(fdo)
    .byte(compileCaps.length)
    .raw(compileCaps)
    .byte(runtimeCaps.length)
    .raw(runtimeCaps)
    .done();
}

export function dataTypesAnswer(): Buffer {
  const timeZone = Buffer.alloc(11);
  timeZone[4] = 60; // UTC: hours and minutes are offset by 60
  timeZone[5] = 60;
  return new Writer()
    .byte(MESSAGE.dataTypes)
    .raw(timeZone)
    .raw(Buffer.from([0, 0]))
    .done();
}

export const status = () => new Writer().byte(MESSAGE.status).ub(0).ub(0).done();

/**
 * The answer to `SELECT 1 FROM DUAL`: the description of one NUMBER column, one row holding 1,
 * and the end of the fetch (ORA-01403) on cursor 1.
 */
export function selectOneAnswer(): Buffer {
  const out = new Writer().byte(MESSAGE.describeInfo).byte(0); // no chunked prefix
  out.ub(22).ub(1).byte(0); // max row size, one column
  out.byte(2).byte(0).byte(0).byte(0x81); // NUMBER, flags, precision 0, scale -127
  out.ub(22).ub(0).ub(0).ub(0).ub(0).ub(0).byte(0).ub(22).ub(0); // sizes, OID, version, charset, form, size, oaccolid
  out.byte(1).byte(0).ub(1).str('1').ub(0).ub(0).ub(1).ub(0); // nullable, name "1", no schema or type, position, flags
  out.ub(0).ub(0).ub(0).ub(0).ub(0).ub(0); // no current date, dcb fields, no trailer
  out.byte(MESSAGE.rowHeader).byte(0).ub(1).ub(0).ub(1).ub(0).ub(0).ub(0);
  out.byte(MESSAGE.rowData).raw(Buffer.from([2, 0xc1, 0x02])); // the Oracle NUMBER 1
  return Buffer.concat([out.done(), errorAnswer(1403, 'ORA-01403: no data found', { cursorId: 1, rowCount: 1 })]);
}

/** An error ending the call, as the driver's processErrorInfo reads it (TTC field version 12.2). */
export function errorAnswer(code: number, text: string, call: { cursorId?: number; rowCount?: number } = {}): Buffer {
  const out = new Writer().byte(MESSAGE.error);
  out
    .ub(0)
    .ub(0)
    .ub(0)
    .ub(0)
    .ub(0)
    .ub(0)
    .ub(call.cursorId ?? 0)
    .ub(0); // call status .. cursor id, error position
  out.raw(Buffer.alloc(6)); // sql type, fatal, flags, cursor options, UPI parameter, warning flag
  out.ub(0).ub(0).byte(0).ub(0).ub(0); // row id
  out.ub(0).byte(0).byte(0).ub(0).ub(0).ub(0); // OS error .. logical row id
  out.ub(0).ub(0).ub(0); // batch errors, offsets, messages
  return out
    .ub(code)
    .ub(call.rowCount ?? 0)
    .str(`${text}\n`)
    .done();
}
