import { createHmac } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createVerifiedTokenCache, signHs256, verifyHs256 } from '../../../daemon/auth/hs256.js';

// The session token signer: standard HS256 JWTs that jose reads and writes alike, and nothing
// else accepted (another algorithm, a changed part, another key, a lax encoding, an expired token).

const SECRET = 'a-session-secret-of-at-least-32-bytes!';
const NOW = 1_800_000_000;
const claims = { sub: 'usr_1', exp: NOW + 60, iat: NOW, sid: 'ses_1' };

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
/** A token signed with `secret` over exactly the header and payload given. */
const signed = (header: string, payload: string, secret = SECRET) =>
  `${header}.${payload}.${createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url')}`;
/** The same base64url text with one character changed. */
const flip = (part: string, index: number) => part.slice(0, index) + (part[index] === 'A' ? 'B' : 'A') + part.slice(index + 1);

describe('hs256 session tokens', () => {
  it('writes the header {alg: HS256, typ: JWT} and the claims as given, in unpadded base64url', () => {
    const token = signHs256(createVerifiedTokenCache(), SECRET, claims);
    const [header, payload, signature] = token.split('.');
    expect(decode(header)).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(decode(payload)).toEqual(claims);
    for (const part of [header, payload, signature]) expect(part).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(signature, 'base64url')).toHaveLength(32);
    expect(verifyHs256(createVerifiedTokenCache(), SECRET, token, NOW)).toEqual(claims);
  });

  it('is read by jose, and reads what jose signs', async () => {
    const key = new TextEncoder().encode(SECRET);
    const ours = signHs256(createVerifiedTokenCache(), SECRET, claims);
    const { payload, protectedHeader } = await jwtVerify(ours, key, { algorithms: ['HS256'], currentDate: new Date(NOW * 1000) });
    expect(payload).toEqual(claims);
    expect(protectedHeader).toEqual({ alg: 'HS256', typ: 'JWT' });
    const theirs = await new SignJWT({ sid: 'ses_2' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('usr_2')
      .setExpirationTime(NOW + 60)
      .sign(key);
    expect(verifyHs256(createVerifiedTokenCache(), SECRET, theirs, NOW)).toEqual({ sub: 'usr_2', exp: NOW + 60, sid: 'ses_2' });
  });

  it('refuses a token whose header names another algorithm or none, even when its HMAC is right', () => {
    const payload = b64(claims);
    for (const header of [{ alg: 'none', typ: 'JWT' }, { alg: 'HS512', typ: 'JWT' }, { alg: 'hs256' }, { typ: 'JWT' }]) {
      expect(verifyHs256(createVerifiedTokenCache(), SECRET, signed(b64(header), payload), NOW), JSON.stringify(header)).toBeUndefined();
    }
    expect(verifyHs256(createVerifiedTokenCache(), SECRET, `${b64({ alg: 'none' })}.${payload}.`, NOW)).toBeUndefined();
    expect(verifyHs256(createVerifiedTokenCache(), SECRET, signed(b64({ alg: 'HS256' }), payload), NOW)).toEqual(claims);
  });

  it('refuses a changed header, payload or signature', () => {
    const cache = createVerifiedTokenCache();
    const token = signHs256(cache, SECRET, claims);
    expect(verifyHs256(cache, SECRET, token, NOW)).toEqual(claims);
    const [header, payload, signature] = token.split('.');
    const raised = b64({ ...claims, sub: 'usr_admin' });
    for (const tampered of [
      `${flip(header, 3)}.${payload}.${signature}`,
      `${header}.${raised}.${signature}`,
      `${header}.${flip(payload, 5)}.${signature}`,
      `${header}.${payload}.${flip(signature, 4)}`,
      `${header}.${payload}.${signature.slice(0, -2)}`,
      `${header}.${payload}`,
      `${header}.${payload}.${signature}.${signature}`,
      `${header}.${payload}.`,
    ]) {
      expect(verifyHs256(cache, SECRET, tampered, NOW), tampered).toBeUndefined();
    }
  });

  it('refuses a token signed with another key', () => {
    const token = signHs256(createVerifiedTokenCache(), 'another-secret-of-at-least-32-bytes!!', claims);
    expect(verifyHs256(createVerifiedTokenCache(), SECRET, token, NOW)).toBeUndefined();
    // The cache of verified tokens is per secret: a token verified under one key is not under another.
    const cache = createVerifiedTokenCache();
    expect(verifyHs256(cache, 'another-secret-of-at-least-32-bytes!!', token, NOW)).toEqual(claims);
    expect(verifyHs256(cache, SECRET, token, NOW)).toBeUndefined();
  });

  it('accepts only the canonical base64url of the signature', () => {
    const token = signHs256(createVerifiedTokenCache(), SECRET, claims);
    const [header, payload, signature] = token.split('.');
    const bytes = Buffer.from(signature, 'base64url');
    // 32 bytes are 43 characters whose last carries 2 unused bits: Node decodes each variant to the same bytes.
    const strayBits =
      signature.slice(0, -1) +
      'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'[
        'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.indexOf(signature.at(-1)!) ^ 1
      ];
    for (const variant of [`${signature}=`, bytes.toString('base64'), strayBits]) {
      if (variant === signature) continue;
      expect(Buffer.from(variant, 'base64url').equals(bytes), variant).toBe(true);
      expect(verifyHs256(createVerifiedTokenCache(), SECRET, `${header}.${payload}.${variant}`, NOW), variant).toBeUndefined();
    }
  });

  it('refuses an expired token, also one it verified before, and claims of the wrong type', () => {
    const cache = createVerifiedTokenCache();
    const token = signHs256(cache, SECRET, claims);
    expect(verifyHs256(cache, SECRET, token, claims.exp - 1)).toEqual(claims);
    expect(verifyHs256(cache, SECRET, token, claims.exp)).toBeUndefined();
    expect(verifyHs256(cache, SECRET, token, claims.exp + 3600)).toBeUndefined();
    expect(verifyHs256(createVerifiedTokenCache(), SECRET, token, claims.exp)).toBeUndefined();
    const header = b64({ alg: 'HS256', typ: 'JWT' });
    for (const payload of [{ sub: 'usr_1' }, { sub: 'usr_1', exp: String(NOW + 60) }, { exp: NOW + 60 }, { sub: 1, exp: NOW + 60 }, null, 'text']) {
      expect(verifyHs256(createVerifiedTokenCache(), SECRET, signed(header, b64(payload)), NOW), JSON.stringify(payload)).toBeUndefined();
    }
  });
});
