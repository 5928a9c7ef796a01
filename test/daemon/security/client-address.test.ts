import { describe, expect, it } from 'vitest';
import { trustProxy } from '../../../daemon/config/parsers.js';
import { resolveClientAddress } from '../../../daemon/http/client-address.js';

const trust = (value: string) => trustProxy().parse(value);

describe('the client address under SVC_TRUST_PROXY', () => {
  it('trusts nobody by default: the socket peer is the client', () => {
    expect(resolveClientAddress(trust('false'), '::ffff:192.0.2.1', '203.0.113.5')).toBe('192.0.2.1');
    expect(resolveClientAddress(trust(''), '192.0.2.1', '203.0.113.5')).toBe('192.0.2.1');
  });

  it('a hop count takes that many entries from the right', () => {
    expect(resolveClientAddress(trust('1'), '10.0.0.1', 'spoofed, 203.0.113.5')).toBe('203.0.113.5');
    expect(resolveClientAddress(trust('2'), '10.0.0.1', '1.2.3.4, 203.0.113.5, 10.0.0.2')).toBe('203.0.113.5');
    // Fewer hops than configured: the leftmost there is.
    expect(resolveClientAddress(trust('3'), '10.0.0.1', '203.0.113.5')).toBe('203.0.113.5');
    expect(resolveClientAddress(trust('1'), '10.0.0.1', undefined)).toBe('10.0.0.1');
    // Garbage where an address belongs: the proxy's own address.
    expect(resolveClientAddress(trust('1'), '10.0.0.1', 'not-an-address')).toBe('10.0.0.1');
  });

  it('an address list walks left while the hop is a trusted proxy', () => {
    const list = trust('10.0.0.0/8, 192.168.1.1, fd00::/8');
    expect(resolveClientAddress(list, '10.0.0.1', '198.18.0.1, 203.0.113.5, 10.9.9.9')).toBe('203.0.113.5');
    expect(resolveClientAddress(list, '::ffff:192.168.1.1', '203.0.113.5')).toBe('203.0.113.5');
    expect(resolveClientAddress(list, 'fd00::1', '2001:db8::7')).toBe('2001:db8::7');
    // A peer that is no trusted proxy is the client, whatever it claims.
    expect(resolveClientAddress(list, '203.0.113.9', '198.18.0.1')).toBe('203.0.113.9');
  });

  it('refuses a value that is neither a hop count nor addresses', () => {
    expect(() => trust('yes please')).toThrow(/hop count or a list/);
    expect(() => trust('10.0.0.0/33')).toThrow(/hop count or a list/);
    expect(trust('0')).toEqual({ kind: 'none' });
  });
});
