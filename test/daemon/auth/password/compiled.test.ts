/**
 * The module as it ships: compiled to JavaScript and run by plain Node, where the
 * bcrypt workers must find bcryptjs and must not keep the process alive.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '../../../..');
const sources = join(root, 'daemon/auth/password');
let outDir: string;

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'svc-password-'));
  const files = (await readdir(sources)).filter((name) => name.endsWith('.ts')).map((name) => join(sources, name));
  await run(
    process.execPath,
    [
      join(root, 'node_modules/typescript/bin/tsc'),
      // The module and what it imports (the worker helper), laid out as in dist/.
      ...['--outDir', outDir, '--rootDir', root],
      ...['--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2023'],
      ...['--strict', '--types', 'node', '--skipLibCheck'],
      ...files,
    ],
    { cwd: root },
  );
  // Packages resolve from the compiled files as they would from dist/.
  await symlink(join(root, 'node_modules'), join(outDir, 'node_modules'), 'dir');
  await writeFile(join(outDir, 'package.json'), '{"type":"module"}\n');
}, 60_000);

afterAll(async () => {
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

const SCRIPT = `
import { createPasswordHasher, DEFAULT_POLICY, mergePolicy } from './daemon/auth/password/index.js';

const cheap = mergePolicy(DEFAULT_POLICY, { argon2: { memory: 8192, time: 1, threads: 1 }, bcrypt: { cost: 10 } });
const bcrypt = createPasswordHasher(mergePolicy(cheap, { algorithm: 'bcrypt' }), { concurrency: 2 });
const argon2 = createPasswordHasher(cheap, { concurrency: 2 });
const fromBcrypt = await bcrypt.hash('pw');
const fromArgon2 = await argon2.hash('pw');
const results = {
  fromBcrypt,
  bcryptVerifies: await argon2.verify(fromBcrypt, 'pw'),
  argon2Verifies: await bcrypt.verify(fromArgon2, 'pw'),
  wrong: await bcrypt.verify(fromBcrypt, 'other'),
};
console.log(JSON.stringify(results));
// Neither hasher is closed: the process must end by itself once this last hash is written.
bcrypt.hash('late').then((late) => console.log(JSON.stringify({ late })));
`;

describe('compiled module', () => {
  it('hashes and verifies with plain Node, and never keeps the process alive', async () => {
    await writeFile(join(outDir, 'main.mjs'), SCRIPT);
    const { stdout } = await run(process.execPath, ['main.mjs'], { cwd: outDir, timeout: 20_000 });
    const [first, second] = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(first).toEqual({
      fromBcrypt: expect.stringMatching(/^\$2b\$10\$/),
      bcryptVerifies: true,
      argon2Verifies: true,
      wrong: false,
    });
    expect(second).toEqual({ late: expect.stringMatching(/^\$2b\$10\$/) });
  });
});
