import { BlockList, isIP } from 'node:net';
import type { TrustProxy } from '../http/client-address.js';
import { parseNetworks } from '../../probes/egress.js';

/**
 * Parsers for configuration values. Each takes the raw value (a string from the environment, or
 * whatever YAML produced) and returns the typed value or throws a message saying what is expected.
 */
export type Parser<T> = { parse(raw: unknown): T; describe: string };

const text = (raw: unknown): string => {
  if (typeof raw === 'string') return raw;
  if (typeof raw === 'number' || typeof raw === 'boolean') return String(raw);
  throw new Error('expected a string');
};

export const string = (): Parser<string> => ({ describe: 'string', parse: text });

export const integer = (min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER): Parser<number> => ({
  describe: min > Number.MIN_SAFE_INTEGER ? `integer${max < Number.MAX_SAFE_INTEGER ? ` ${min} to ${max}` : ` ≥ ${min}`}` : 'integer',
  parse(raw) {
    const value = typeof raw === 'number' ? raw : /^\s*-?\d+\s*$/.test(text(raw)) ? Number(text(raw)) : NaN;
    if (!Number.isSafeInteger(value)) throw new Error(`expected an integer, got ${JSON.stringify(raw)}`);
    if (value < min || value > max) throw new Error(`expected an integer from ${min} to ${max}, got ${value}`);
    return value;
  },
});

export const boolean = (): Parser<boolean> => ({
  describe: 'boolean (true/false)',
  parse(raw) {
    if (typeof raw === 'boolean') return raw;
    const value = text(raw).trim().toLowerCase();
    if (['true', '1', 'yes', 'on'].includes(value)) return true;
    if (['false', '0', 'no', 'off'].includes(value)) return false;
    throw new Error(`expected true or false, got ${JSON.stringify(raw)}`);
  },
});

export const oneOf = <T extends string>(...values: T[]): Parser<T> => ({
  describe: values.map((v) => `\`${v}\``).join(', '),
  parse(raw) {
    const value = text(raw).trim();
    if (!(values as string[]).includes(value)) throw new Error(`expected one of ${values.join(', ')}, got ${JSON.stringify(raw)}`);
    return value as T;
  },
});

export const regex = (): Parser<string> => ({
  describe: 'regular expression',
  parse(raw) {
    const value = text(raw);
    try {
      new RegExp(value);
    } catch {
      throw new Error(`expected a regular expression, got ${JSON.stringify(raw)}`);
    }
    return value;
  },
});

export const httpUrl = (): Parser<string> => ({
  describe: 'http(s) URL',
  parse(raw) {
    const value = text(raw).trim();
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new Error(`expected an http(s) URL, got ${JSON.stringify(raw)}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`expected an http(s) URL, got ${JSON.stringify(raw)}`);
    return value.replace(/\/+$/, '');
  },
});

export const email = (): Parser<string> => ({
  describe: 'e-mail address',
  parse(raw) {
    const value = text(raw).trim().toLowerCase();
    if (!/^[^\s@]+@[^\s@]+$/.test(value)) throw new Error(`expected an e-mail address, got ${JSON.stringify(raw)}`);
    return value;
  },
});

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** A duration in seconds: a plain number of seconds, or `30s`, `15m`, `12h`, `7d`. */
export const duration = (minSeconds = 1): Parser<number> => ({
  describe: 'duration (seconds, or 30s, 15m, 12h, 7d)',
  parse(raw) {
    const match = /^\s*(\d+)\s*([smhd]?)\s*$/.exec(text(raw));
    const seconds = match ? Number(match[1]) * UNITS[match[2] || 's'] : NaN;
    if (!Number.isSafeInteger(seconds) || seconds < minSeconds) {
      throw new Error(`expected a duration of at least ${minSeconds} s such as 900, 15m, 12h or 7d, got ${JSON.stringify(raw)}`);
    }
    return seconds;
  },
});

/** `host:port`; a bare port listens on 127.0.0.1. */
export const listenAddress = (): Parser<{ host: string; port: number }> => ({
  describe: 'host:port',
  parse(raw) {
    const match = /^\s*(?:\[?([^\]]*?)\]?:)?(\d{1,5})\s*$/.exec(text(raw));
    const port = match ? Number(match[2]) : NaN;
    if (!match || port > 65535) throw new Error(`expected host:port such as 127.0.0.1:4000, got ${JSON.stringify(raw)}`);
    return { host: match[1] || '127.0.0.1', port };
  },
});

/** `sqlite:<path>` or `postgres://...`. */
export const databaseUrl = (): Parser<string> => ({
  describe: '`sqlite:<path>` or `postgres://user@host:port/db`',
  parse(raw) {
    const value = text(raw).trim();
    if (/^sqlite:.+/.test(value) || /^postgres(ql)?:\/\/.+/.test(value)) return value;
    throw new Error('expected sqlite:<path> or postgres://user@host:port/database');
  },
});

/**
 * Proxy trust: `false`/`0` (none), a hop count (`1`, `2`), or a comma-separated list of proxy
 * addresses and networks (`10.0.0.1, 192.168.0.0/16, fd00::/8`).
 */
export const trustProxy = (): Parser<TrustProxy> => ({
  describe: 'hop count, or a list of addresses and networks',
  parse(raw) {
    const value = text(raw).trim();
    if (value === '' || /^(false|no|off|0)$/i.test(value)) return { kind: 'none' };
    if (/^\d+$/.test(value)) return { kind: 'hops', hops: Number(value) };
    const list = new BlockList();
    for (const entry of value
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean)) {
      const [address, prefix, extra] = entry.split('/');
      const kind = isIP(address);
      const bits = prefix === undefined ? undefined : Number(prefix);
      if (kind === 0 || extra !== undefined || (bits !== undefined && (!/^\d+$/.test(prefix!) || bits > (kind === 4 ? 32 : 128)))) {
        throw new Error(`expected a hop count or a list of IP addresses and networks (10.0.0.1, 192.168.0.0/16), got ${JSON.stringify(entry)}`);
      }
      const family = kind === 4 ? 'ipv4' : 'ipv6';
      if (bits === undefined) list.addAddress(address, family);
      else list.addSubnet(address, bits, family);
    }
    return { kind: 'addresses', list, text: value };
  },
});

/** A comma-separated list of IP addresses and networks (`127.0.0.0/8, ::1`), kept as the entries. */
export const networks = (): Parser<string[]> => ({
  describe: 'list of IP addresses and networks',
  parse(raw) {
    const entries = (Array.isArray(raw) ? raw.map(text) : text(raw).split(',')).map((entry) => entry.trim()).filter(Boolean);
    parseNetworks(entries);
    return entries;
  },
});

/** A 32-byte key in base64 (e.g. `openssl rand -base64 32`); kept as text, checked here. */
export const base64Key = (): Parser<string> => ({
  describe: '32 bytes in base64',
  parse(raw) {
    const value = text(raw).trim();
    if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(value) || Buffer.from(value, 'base64').length !== 32) {
      throw new Error('expected 32 bytes encoded in base64 (e.g. openssl rand -base64 32)');
    }
    return value;
  },
});
