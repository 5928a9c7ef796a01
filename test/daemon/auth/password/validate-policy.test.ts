import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, mergePolicy, type PasswordPolicy, type PolicyOverrides } from '../../../../daemon/auth/password/policy.js';
import { applyPreset, PASSWORD_PRESETS, type PasswordPresetName } from '../../../../daemon/auth/password/presets.js';
import {
  assertValidPolicy,
  PasswordPolicyError,
  POLICY_LIMITS,
  validatePolicy,
  validatePolicyOverrides,
} from '../../../../daemon/auth/password/validate-policy.js';

const withOverrides = (overrides: PolicyOverrides): PasswordPolicy => mergePolicy(DEFAULT_POLICY, overrides);
const errorFields = (policy: PasswordPolicy) => validatePolicy(policy).errors.map((issue) => issue.field);
const warningFields = (policy: PasswordPolicy) => validatePolicy(policy).warnings.map((issue) => issue.field);

describe('validatePolicy: start-up errors (SPEC rule 3)', () => {
  it('accepts the default policy and every preset without warnings', () => {
    expect(validatePolicy(DEFAULT_POLICY)).toEqual({ errors: [], warnings: [] });
    for (const name of Object.keys(PASSWORD_PRESETS) as PasswordPresetName[]) {
      expect(validatePolicy(applyPreset(DEFAULT_POLICY, name)), name).toEqual({ errors: [], warnings: [] });
    }
  });

  it('rejects an unknown algorithm, naming it', () => {
    const { errors } = validatePolicy({ ...DEFAULT_POLICY, algorithm: 'scrypt' as PasswordPolicy['algorithm'] });
    expect(errors).toEqual([{ field: 'algorithm', message: expect.stringContaining('"scrypt"') }]);
  });

  it.each([
    [undefined, 'unknown algorithm undefined'],
    [10n, 'unknown algorithm 10'],
    [Object.create(null), 'unknown algorithm an object'],
    [['bcrypt'], 'unknown algorithm an array'],
  ])('rejects the algorithm %o without throwing', (algorithm, message) => {
    const [error] = validatePolicy({ ...DEFAULT_POLICY, algorithm } as unknown as PasswordPolicy).errors;
    expect(error.field).toBe('algorithm');
    expect(error.message.startsWith(`${message};`)).toBe(true);
  });

  it.each([
    [9, 'must be at least 10'],
    [32, 'must be at most 31'],
    [12.5, 'must be an integer'],
    [Number.NaN, 'must be an integer'],
  ])('rejects bcrypt cost %s', (cost, message) => {
    expect(validatePolicy(withOverrides({ algorithm: 'bcrypt', bcrypt: { cost } })).errors).toEqual([{ field: 'bcrypt.cost', message }]);
  });

  it.each([10, 31])('accepts bcrypt cost %i', (cost) => {
    expect(validatePolicy(withOverrides({ algorithm: 'bcrypt', bcrypt: { cost } }))).toEqual({ errors: [], warnings: [] });
  });

  it('rejects argon2id memory 8191 KiB and accepts 8192 KiB with a warning', () => {
    expect(validatePolicy(withOverrides({ argon2: { memory: 8191 } })).errors).toEqual([{ field: 'argon2.memory', message: 'must be at least 8192 KiB' }]);
    const accepted = validatePolicy(withOverrides({ argon2: { memory: 8192, time: 4 } }));
    expect(accepted.errors).toEqual([]);
    expect(accepted.warnings.map((w) => w.field)).toEqual(['argon2.memory']);
  });

  it('checks the bcrypt cost while argon2id is selected, and the argon2 knobs while bcrypt is', () => {
    expect(errorFields(withOverrides({ algorithm: 'argon2id', bcrypt: { cost: 40 } }))).toEqual(['bcrypt.cost']);
    expect(errorFields(withOverrides({ algorithm: 'bcrypt', argon2: { memory: 1024, saltLength: 4 } }))).toEqual(['argon2.memory', 'argon2.saltLength']);
  });

  it.each([
    ['memory', 4 * 1024 * 1024 + 1],
    ['memory', 65536.5],
    ['time', 0],
    ['time', 1001],
    ['threads', 0],
    ['threads', 256],
    ['keyLength', 3],
    ['keyLength', 1025],
    ['saltLength', 7],
    ['saltLength', 1025],
  ] as const)('rejects argon2.%s = %s', (field, value) => {
    expect(errorFields(withOverrides({ argon2: { [field]: value } }))).toEqual([`argon2.${field}`]);
  });

  it.each([
    ['memory', 4 * 1024 * 1024],
    ['time', 1000],
    ['threads', 255],
    ['keyLength', 1024],
    ['saltLength', 1024],
  ] as const)('accepts argon2.%s at its upper bound %s', (field, value) => {
    expect(errorFields(withOverrides({ argon2: { [field]: value } }))).toEqual([]);
  });

  it('needs no separate check of memory against 8 KiB per lane: the floor covers every lane count', () => {
    expect(8 * POLICY_LIMITS['argon2.threads'].max).toBeLessThanOrEqual(POLICY_LIMITS['argon2.memory'].min);
  });

  it('catches ill-typed values from untyped sources', () => {
    const policy = {
      algorithm: 'argon2id',
      argon2: { memory: '65536', time: 3, threads: 4, keyLength: 32, saltLength: 16 },
      bcrypt: null,
      rehashOnLogin: 'yes',
    } as unknown as PasswordPolicy;
    expect(validatePolicy(policy).errors).toEqual([
      { field: 'argon2.memory', message: 'must be an integer' },
      { field: 'bcrypt', message: 'must be an object' },
      { field: 'rehashOnLogin', message: 'must be true or false' },
    ]);
    expect(validatePolicy(null as unknown as PasswordPolicy).errors).toEqual([{ field: '', message: 'must be an object' }]);
  });

  it('reports an error for every value outside its range, on its own path (property)', () => {
    const fields = Object.keys(POLICY_LIMITS) as Array<keyof typeof POLICY_LIMITS>;
    fc.assert(
      fc.property(fc.constantFrom(...fields), fc.integer({ min: -(2 ** 40), max: 2 ** 40 }), (path, value) => {
        const { min, max } = POLICY_LIMITS[path];
        const [section, field] = path.split('.');
        const policy = withOverrides({ [section]: { [field]: value } });
        const expected = value < min || value > max ? [path] : [];
        expect(errorFields(policy)).toEqual(expected);
      }),
    );
  });
});

describe('assertValidPolicy: no silent fallback', () => {
  it('throws with every error and returns the warnings otherwise', () => {
    const bad = withOverrides({ algorithm: 'bcrypt', bcrypt: { cost: 9 }, argon2: { memory: 100 } });
    let thrown: unknown;
    try {
      assertValidPolicy(bad);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(PasswordPolicyError);
    expect((thrown as PasswordPolicyError).issues.map((issue) => issue.field)).toEqual(['argon2.memory', 'bcrypt.cost']);
    expect((thrown as Error).message).toContain('bcrypt.cost: must be at least 10');
    expect(assertValidPolicy(withOverrides({ argon2: { saltLength: 8 } })).map((w) => w.field)).toEqual(['argon2.saltLength']);
  });
});

describe('validatePolicy: warnings below the recommended floors (SPEC rule 4)', () => {
  it.each([
    [{ memory: 9216, time: 4 }, []],
    [{ memory: 12288, time: 3 }, []],
    [{ memory: 19456, time: 2 }, []],
    [{ memory: 47104, time: 1 }, []],
    [{ memory: 9216, time: 3 }, ['argon2.memory']],
    [{ memory: 19456, time: 1 }, ['argon2.memory']],
    [{ saltLength: 15 }, ['argon2.saltLength']],
    [{ keyLength: 15 }, ['argon2.keyLength']],
    [{ memory: 8192, time: 1, saltLength: 8, keyLength: 4 }, ['argon2.memory', 'argon2.saltLength', 'argon2.keyLength']],
  ])('argon2 %o warns on %o', (argon2, fields) => {
    const policy = withOverrides({ argon2 });
    expect(errorFields(policy)).toEqual([]);
    expect(warningFields(policy)).toEqual(fields);
  });

  it('explains the memory × time warning', () => {
    const [warning] = validatePolicy(withOverrides({ argon2: { memory: 9216, time: 3 } })).warnings;
    expect(warning.message).toContain('9216 KiB × 3');
    expect(warning.message).toContain('36864');
  });

  it('warns about the selected algorithm only', () => {
    const policy = withOverrides({ algorithm: 'bcrypt', argon2: { memory: 8192, time: 1, saltLength: 8 } });
    expect(validatePolicy(policy)).toEqual({ errors: [], warnings: [] });
  });

  it('gives no warnings while there are errors', () => {
    expect(validatePolicy(withOverrides({ argon2: { memory: 8192, time: 1, threads: 0 } })).warnings).toEqual([]);
  });
});

describe('validatePolicyOverrides', () => {
  it.each([null, undefined, {}, { algorithm: null, argon2: null, bcrypt: null, rehashOnLogin: null }])('accepts %o (everything inherited)', (input) => {
    expect(validatePolicyOverrides(input)).toEqual([]);
  });

  it('accepts a complete set of valid values', () => {
    expect(validatePolicyOverrides(structuredClone(DEFAULT_POLICY))).toEqual([]);
    expect(validatePolicyOverrides({ argon2: { memory: 19456, time: null, threads: 1 }, bcrypt: {} })).toEqual([]);
  });

  it('accepts every preset', () => {
    for (const preset of Object.values(PASSWORD_PRESETS)) expect(validatePolicyOverrides(preset)).toEqual([]);
  });

  it.each([
    ['a string', 'argon2id', ''],
    ['an array', [], ''],
    ['a number', 3, ''],
  ])('rejects %s', (_label, input, field) => {
    expect(validatePolicyOverrides(input)).toEqual([{ field, message: 'must be an object' }]);
  });

  it('reports unknown settings with their paths', () => {
    const input = JSON.parse('{"pepper":"x","argon2":{"memory_kib":1,"memory":65536},"bcrypt":{"rounds":12},"__proto__":{}}');
    expect(validatePolicyOverrides(input)).toEqual([
      { field: 'argon2.memory_kib', message: 'unknown setting' },
      { field: 'bcrypt.rounds', message: 'unknown setting' },
      { field: 'pepper', message: 'unknown setting' },
      { field: '__proto__', message: 'unknown setting' },
    ]);
  });

  it('reports wrong types and values out of range, as the dashboard form would send them', () => {
    expect(
      validatePolicyOverrides({
        algorithm: 'md5',
        argon2: { memory: '65536', time: 0, threads: 2.5, keyLength: 2000 },
        bcrypt: { cost: 9 },
        rehashOnLogin: 'true',
      }),
    ).toEqual([
      { field: 'algorithm', message: expect.stringContaining('unknown algorithm "md5"') },
      { field: 'argon2.memory', message: 'must be an integer' },
      { field: 'argon2.time', message: 'must be at least 1' },
      { field: 'argon2.threads', message: 'must be an integer' },
      { field: 'argon2.keyLength', message: 'must be at most 1024 bytes' },
      { field: 'bcrypt.cost', message: 'must be at least 10' },
      { field: 'rehashOnLogin', message: 'must be true or false' },
    ]);
    expect(validatePolicyOverrides({ argon2: 'fast', bcrypt: [12] })).toEqual([
      { field: 'argon2', message: 'must be an object' },
      { field: 'bcrypt', message: 'must be an object' },
    ]);
  });

  it('agrees with validatePolicy on the merged result of any overrides it accepts (property)', () => {
    const value = fc.oneof(
      fc.constant(null),
      fc.integer({ min: -10, max: 5_000_000 }),
      fc.double(),
      fc.string(),
      fc.boolean(),
      fc.constantFrom('argon2id', 'bcrypt', 'argon2i'),
    );
    const section = (keys: string[]) => fc.oneof(fc.constant(null), fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: keys.length }));
    const overrides = fc.record(
      {
        algorithm: value,
        argon2: section(['memory', 'time', 'threads', 'keyLength', 'saltLength']),
        bcrypt: section(['cost']),
        rehashOnLogin: value,
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(overrides, (input) => {
        const issues = validatePolicyOverrides(input);
        const merged = mergePolicy(DEFAULT_POLICY, input as PolicyOverrides);
        if (issues.length === 0) expect(validatePolicy(merged).errors).toEqual([]);
        else expect(validatePolicy(merged).errors).toEqual(issues);
      }),
    );
  });
});
