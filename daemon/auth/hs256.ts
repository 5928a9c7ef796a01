import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';

/** JWT claims this service signs: a subject, an expiry in seconds, and its own claims. */
export type Claims = { sub: string; exp: number; iat?: number; [claim: string]: unknown };

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
const keys = new Map<string, KeyObject>();

function keyFor(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(secret, 'utf8'));
    keys.set(secret, key);
  }
  return key;
}

const mac = (secret: string, signingInput: string) => createHmac('sha256', keyFor(secret)).update(signingInput).digest();

/**
 * HS256 JWTs with Node's own HMAC. Every authenticated request verifies one, so this stays
 * synchronous and cheap (no key import per call); only HS256 is ever accepted, never `none`.
 */
export function signHs256(secret: string, claims: Claims): string {
  const body = `${HEADER}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  return `${body}.${mac(secret, body).toString('base64url')}`;
}

/** The claims of a well-signed, unexpired token, or undefined. */
export function verifyHs256(secret: string, token: string, nowSeconds: number): Claims | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [header, payload, signature] = parts;
  const expected = mac(secret, `${header}.${payload}`);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    if ((JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: unknown }).alg !== 'HS256') return undefined;
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Claims;
    if (typeof claims !== 'object' || claims === null || typeof claims.sub !== 'string' || typeof claims.exp !== 'number') return undefined;
    return claims.exp > nowSeconds ? claims : undefined;
  } catch {
    return undefined;
  }
}
