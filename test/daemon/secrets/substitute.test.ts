import { describe, expect, it } from 'vitest';
import { validateCheck, type CheckDefinition } from '../../../checks/index.js';
import { checkSecretName, referencedSecrets, secretNameFrom } from '../../../checks/secret-references.js';
import { createKeyring, decodeKey, generateKey } from '../../../daemon/secrets/keyring.js';
import { MisplacedReferenceError, MissingSecretError, substituteSecrets } from '../../../daemon/secrets/substitute.js';
import { redact } from '../../../probes/run-probe.js';

function check(input: Record<string, unknown>): CheckDefinition {
  const result = validateCheck(input);
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.check;
}

describe('secret references', () => {
  it('substitutes every reference in credential fields and lists the values used, for redaction', () => {
    const http = check({
      name: 'API',
      type: 'http',
      target: 'https://api.example.com/',
      config: {
        basicAuthUser: 'ops',
        basicAuthPassword: '{{secrets.OPS_PASSWORD}}',
        headers: { Authorization: 'Bearer {{ secrets.API_TOKEN }}', Accept: 'text/plain' },
      },
    });
    const secrets = new Map([
      ['OPS_PASSWORD', 'p@ss w0rd'],
      ['API_TOKEN', 'tok-abc-123'],
      ['UNUSED', 'never'],
    ]);
    const prepared = substituteSecrets(http, secrets);
    expect(prepared.check.config).toMatchObject({ basicAuthPassword: 'p@ss w0rd', headers: { Authorization: 'Bearer tok-abc-123', Accept: 'text/plain' } });
    expect(prepared.secretValues.sort()).toEqual(['p@ss w0rd', 'tok-abc-123']);
    // The stored check is untouched.
    expect(http.config).toMatchObject({ basicAuthPassword: '{{secrets.OPS_PASSWORD}}' });
    expect(redact('401 from server: bad token tok-abc-123 for ops:p@ss w0rd', prepared.secretValues)).toBe('401 from server: [withheld: contained a secret]');
  });

  it('withholds every part of a message that holds an 8-character piece of a secret, however encoded', () => {
    const secret = 'Zq8"Xw\\p4/Lm+Ty=Nv&Kc?Rb7Hs';
    const piece = secret.slice(9, 17);
    const forms = [
      piece,
      piece.toUpperCase(),
      JSON.stringify(secret).slice(0, 14),
      JSON.stringify(JSON.stringify(secret)),
      encodeURIComponent(secret.slice(3, 20)),
      Buffer.from(`Bearer ${secret}`).toString('base64'),
      Buffer.from(secret.slice(5, 15)).toString('base64url'),
      Buffer.from(piece).toString('hex'),
    ];
    for (const form of forms) {
      expect(redact(`JSON token is ${form}, expected == "x"`, [secret]), form).toBe('[withheld: contained a secret], expected == "x"');
    }
    // Pieces shorter than eight characters, and other text, stay.
    expect(redact(`JSON token is ${secret.slice(0, 7)}…, expected == "x"`, [secret])).toBe(`JSON token is ${secret.slice(0, 7)}…, expected == "x"`);
  });

  it('refuses to run a stored check that refers to a secret outside a credential field', () => {
    const stored = { ...check({ name: 'Old', type: 'http', target: 'https://api.example.com/' }) };
    const legacy = {
      ...stored,
      config: { ...stored.config, keyword: { value: 'id {{secrets.API_TOKEN}}', expect: 'present', caseSensitive: true } },
    } as CheckDefinition;
    expect(() => substituteSecrets(legacy, new Map([['API_TOKEN', 'tok-abc-123']]))).toThrow(new MisplacedReferenceError(['config.keyword.value']));
  });

  it('fails a check whose secret is not set, naming it and no value', () => {
    const pg = check({ name: 'DB', type: 'postgres', target: 'db:5432', config: { password: '{{secrets.DB_PASSWORD}}' } });
    expect(() => substituteSecrets(pg, new Map())).toThrow(new MissingSecretError(['DB_PASSWORD']));
    expect(new MissingSecretError(['DB_PASSWORD']).message).toBe('secret DB_PASSWORD is not set');
    expect(substituteSecrets(check({ name: 'T', type: 'tcp', target: 'h:1' }), new Map()).secretValues).toEqual([]);
  });

  it('finds references anywhere and derives stable, valid names from slugs and fields', () => {
    expect(referencedSecrets({ a: ['{{secrets.B}} {{secrets.A}}'], c: { d: '{{secrets.A}}' }, e: '{{secrets.lower}}' })).toEqual(['A', 'B']);
    expect(checkSecretName('orders-db', 'password')).toBe('ORDERS_DB_PASSWORD');
    expect(checkSecretName('9-lives', 'basic auth password')).toBe('S_9_LIVES_BASIC_AUTH_PASSWORD');
    expect(checkSecretName('a'.repeat(63), 'PASSWORD')).toMatch(/^A+_PASSWORD$/);
    expect(checkSecretName('a'.repeat(63), 'PASSWORD').length).toBeLessThanOrEqual(64);
    expect(secretNameFrom('api.token-v2')).toBe('API_TOKEN_V2');
  });
});

describe('the keyring', () => {
  it('round-trips, tags values with the key id, refuses tampering and unknown keys', () => {
    const key = decodeKey(generateKey());
    const keyring = createKeyring(key);
    const sealed = keyring.encrypt('hello');
    expect(sealed).toMatch(new RegExp(`^enc:v1:${keyring.currentId}:`));
    expect(keyring.encrypt('hello')).not.toBe(sealed);
    expect(keyring.decrypt(sealed)).toBe('hello');
    // A character inside the base64 (all six of its bits are data) changed to another.
    const at = sealed.length - 10;
    const tampered = sealed.slice(0, at) + (sealed[at] === 'A' ? 'Q' : 'A') + sealed.slice(at + 1);
    expect(tampered).not.toBe(sealed);
    expect(() => keyring.decrypt(tampered)).toThrow();
    const other = createKeyring(decodeKey(generateKey()));
    expect(() => other.decrypt(sealed)).toThrow(/SVC_SECRET_KEY_PREVIOUS/);
    expect(createKeyring(decodeKey(generateKey()), key).decrypt(sealed)).toBe('hello');
    expect(keyring.reveal('plain')).toBe('plain');
    expect(() => decodeKey('c2hvcnQ=')).toThrow(/32 bytes/);
    expect(keyring.deriveKey('session signing')).not.toEqual(key);
    expect(keyring.checkValue()).not.toContain(key.toString('base64'));
  });
});
