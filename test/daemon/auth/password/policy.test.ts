import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, mergePolicy, type PasswordPolicy, type PolicyOverrides } from '../../../../daemon/auth/password/policy.js';
import { PASSWORD_PRESETS, applyPreset, isPresetName } from '../../../../daemon/auth/password/presets.js';

const overridesArbitrary: fc.Arbitrary<PolicyOverrides> = fc.record(
  {
    algorithm: fc.option(fc.constantFrom('argon2id' as const, 'bcrypt' as const)),
    argon2: fc.option(
      fc.record(
        {
          memory: fc.option(fc.integer({ min: 8192, max: 1 << 20 })),
          time: fc.option(fc.integer({ min: 1, max: 10 })),
          threads: fc.option(fc.integer({ min: 1, max: 255 })),
          keyLength: fc.option(fc.integer({ min: 4, max: 64 })),
          saltLength: fc.option(fc.integer({ min: 8, max: 64 })),
        },
        { requiredKeys: [] },
      ),
    ),
    bcrypt: fc.option(fc.record({ cost: fc.option(fc.integer({ min: 10, max: 31 })) }, { requiredKeys: [] })),
    rehashOnLogin: fc.option(fc.boolean()),
  },
  { requiredKeys: [] },
);

describe('DEFAULT_POLICY', () => {
  it('is argon2id at 64 MiB, 3 passes, 4 lanes, 32-byte key, 16-byte salt, bcrypt cost 12, re-hash on', () => {
    expect(DEFAULT_POLICY).toEqual({
      algorithm: 'argon2id',
      argon2: { memory: 65536, time: 3, threads: 4, keyLength: 32, saltLength: 16 },
      bcrypt: { cost: 12 },
      rehashOnLogin: true,
    });
  });

  it('cannot be changed by accident', () => {
    expect(Object.isFrozen(DEFAULT_POLICY)).toBe(true);
    expect(Object.isFrozen(DEFAULT_POLICY.argon2)).toBe(true);
    expect(Object.isFrozen(DEFAULT_POLICY.bcrypt)).toBe(true);
  });
});

describe('mergePolicy', () => {
  it('takes present values and inherits null and absent ones', () => {
    const merged = mergePolicy(DEFAULT_POLICY, {
      algorithm: null,
      argon2: { memory: 19456, time: null },
      bcrypt: null,
      rehashOnLogin: false,
    });
    expect(merged).toEqual({
      ...DEFAULT_POLICY,
      argon2: { ...DEFAULT_POLICY.argon2, memory: 19456 },
      rehashOnLogin: false,
    });
  });

  it('applies layers in order, the last one winning', () => {
    const fromFile: PolicyOverrides = { algorithm: 'bcrypt', bcrypt: { cost: 11 }, argon2: { time: 4 } };
    const fromEnv: PolicyOverrides = { bcrypt: { cost: 13 } };
    const stored: PolicyOverrides = { algorithm: 'argon2id', argon2: { time: null } };
    expect(mergePolicy(DEFAULT_POLICY, fromFile, fromEnv, null, undefined, stored)).toEqual({
      ...DEFAULT_POLICY,
      argon2: { ...DEFAULT_POLICY.argon2, time: 4 },
      bcrypt: { cost: 13 },
    });
  });

  it('returns a fresh object and never mutates its inputs', () => {
    const base = structuredClone(DEFAULT_POLICY) as PasswordPolicy;
    const overrides: PolicyOverrides = { argon2: { memory: 9216 } };
    const merged = mergePolicy(base, overrides);
    merged.argon2.time = 99;
    expect(base).toEqual(DEFAULT_POLICY);
    expect(overrides).toEqual({ argon2: { memory: 9216 } });
  });

  it('ignores keys a policy does not have', () => {
    const merged = mergePolicy(DEFAULT_POLICY, { argon2: { parallel: 3 } } as unknown as PolicyOverrides);
    expect(merged).toEqual(DEFAULT_POLICY);
  });

  it('is the identity with no overrides, and a complete override replaces everything', () => {
    fc.assert(
      fc.property(overridesArbitrary, (overrides) => {
        const merged = mergePolicy(DEFAULT_POLICY, overrides);
        expect(mergePolicy(merged)).toEqual(merged);
        expect(mergePolicy(DEFAULT_POLICY, merged)).toEqual(merged);
        expect(mergePolicy(merged, DEFAULT_POLICY)).toEqual(DEFAULT_POLICY);
      }),
    );
  });

  it('gives each field the last layer that sets it', () => {
    fc.assert(
      fc.property(fc.array(overridesArbitrary, { maxLength: 4 }), (layers) => {
        const merged = mergePolicy(DEFAULT_POLICY, ...layers);
        const last = <T>(pick: (layer: PolicyOverrides) => T | null | undefined, fallback: T): T =>
          layers.reduce<T>((value, layer) => pick(layer) ?? value, fallback);
        expect(merged.algorithm).toBe(last((l) => l.algorithm, DEFAULT_POLICY.algorithm));
        expect(merged.argon2.memory).toBe(last((l) => l.argon2?.memory, DEFAULT_POLICY.argon2.memory));
        expect(merged.argon2.saltLength).toBe(last((l) => l.argon2?.saltLength, DEFAULT_POLICY.argon2.saltLength));
        expect(merged.bcrypt.cost).toBe(last((l) => l.bcrypt?.cost, DEFAULT_POLICY.bcrypt.cost));
        expect(merged.rehashOnLogin).toBe(last((l) => l.rehashOnLogin, DEFAULT_POLICY.rehashOnLogin));
      }),
    );
  });
});

describe('presets', () => {
  const fromBcrypt = mergePolicy(DEFAULT_POLICY, {
    algorithm: 'bcrypt',
    argon2: { keyLength: 24, saltLength: 24 },
    bcrypt: { cost: 14 },
    rehashOnLogin: false,
  });

  it.each([
    ['default', 65536, 3, 4],
    ['lighter', 19456, 2, 1],
    ['min', 9216, 4, 1],
  ] as const)('%s selects argon2id at %i KiB, t=%i, p=%i and keeps everything else', (name, memory, time, threads) => {
    expect(applyPreset(fromBcrypt, name)).toEqual({
      algorithm: 'argon2id',
      argon2: { memory, time, threads, keyLength: 24, saltLength: 24 },
      bcrypt: { cost: 14 },
      rehashOnLogin: false,
    });
  });

  it('bcrypt selects bcrypt at cost 12 and keeps the argon2 settings', () => {
    const lighter = applyPreset(DEFAULT_POLICY, 'lighter');
    expect(applyPreset(lighter, 'bcrypt')).toEqual({ ...lighter, algorithm: 'bcrypt', bcrypt: { cost: 12 } });
  });

  it('are partial overrides that cannot be changed by accident', () => {
    expect(Object.keys(PASSWORD_PRESETS).sort()).toEqual(['bcrypt', 'default', 'lighter', 'min']);
    expect(PASSWORD_PRESETS.min.argon2).not.toHaveProperty('saltLength');
    expect(Object.isFrozen(PASSWORD_PRESETS.min.argon2)).toBe(true);
  });

  it('names are recognised', () => {
    expect(isPresetName('lighter')).toBe(true);
    expect(isPresetName('toString')).toBe(false);
    expect(isPresetName(3)).toBe(false);
  });
});
