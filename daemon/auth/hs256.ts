import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';

/** JWT claims this service signs: a subject, an expiry in seconds, and its own claims. */
export type Claims = { sub: string; exp: number; iat?: number; [claim: string]: unknown };

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

// A client sends the same token with each request. Whether a token is well signed depends on
// the token and the secret alone, so the claims of the most recently verified ones are kept;
// expiry is still checked on each use.
const VERIFIED_KEPT = 10_000;

interface Signer {
  key: KeyObject;
  verified: Map<string, Readonly<Claims>>;
}

/** The signing keys and recently verified tokens of one app, per secret (held by AppDeps.caches). */
export type VerifiedTokenCache = Map<string, Signer>;

export const createVerifiedTokenCache = (): VerifiedTokenCache => new Map();

function signerFor(signers: VerifiedTokenCache, secret: string): Signer {
  let signer = signers.get(secret);
  if (!signer) {
    signer = { key: createSecretKey(Buffer.from(secret, 'utf8')), verified: new Map() };
    signers.set(secret, signer);
  }
  return signer;
}

const mac = (signer: Signer, signingInput: string) => createHmac('sha256', signer.key).update(signingInput).digest();

/**
 * HS256 JWTs with Node's own HMAC. Every authenticated request verifies one, so this stays
 * synchronous and cheap (no key import per call); only HS256 is ever accepted, never `none`.
 */
export function signHs256(cache: VerifiedTokenCache, secret: string, claims: Claims): string {
  const body = `${HEADER}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  return `${body}.${mac(signerFor(cache, secret), body).toString('base64url')}`;
}

/** The claims of a well-signed, unexpired token, or undefined. */
export function verifyHs256(cache: VerifiedTokenCache, secret: string, token: string, nowSeconds: number): Readonly<Claims> | undefined {
  const signer = signerFor(cache, secret);
  let claims = signer.verified.get(token);
  if (claims) {
    signer.verified.delete(token);
  } else {
    claims = verifySignature(signer, token);
    if (!claims) return undefined;
    if (signer.verified.size >= VERIFIED_KEPT) signer.verified.delete(signer.verified.keys().next().value!);
  }
  signer.verified.set(token, claims);
  return claims.exp > nowSeconds ? claims : undefined;
}

/** The claims of a token whose signature, algorithm and claim types are right. */
function verifySignature(signer: Signer, token: string): Readonly<Claims> | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [header, payload, signature] = parts;
  const expected = mac(signer, `${header}.${payload}`);
  const given = Buffer.from(signature, 'base64url');
  // Node decodes leniently (padding, `+/`, stray bits): only the one canonical form is the token.
  if (given.toString('base64url') !== signature) return undefined;
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    if ((JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: unknown }).alg !== 'HS256') return undefined;
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Claims;
    if (typeof claims !== 'object' || claims === null || typeof claims.sub !== 'string' || typeof claims.exp !== 'number') return undefined;
    return Object.freeze(claims);
  } catch {
    return undefined;
  }
}
