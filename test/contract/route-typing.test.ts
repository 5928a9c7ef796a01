import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

// The route typing, checked by the compiler: test/contract/route-typing.fixture.ts declares one
// right route and four wrong ones, each under `@ts-expect-error`. The fixture must compile as it is
// (every directive meets its error), and a copy without the directives must fail at exactly the
// four wrong places.
const root = fileURLToPath(new URL('../..', import.meta.url));
const fixture = join(root, 'test/contract/route-typing.fixture.ts');
const scratch = mkdtempSync(join(tmpdir(), 'svc-route-typing-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function compile(files: string[]): ts.Diagnostic[] {
  const config = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined })!;
  const program = ts.createProgram(files, { ...config.options, noEmit: true, rootDir: undefined, typeRoots: [join(root, 'node_modules/@types')] });
  return files.flatMap((file) => [
    ...program.getSyntacticDiagnostics(program.getSourceFile(file)),
    ...program.getSemanticDiagnostics(program.getSourceFile(file)),
  ]);
}

describe('a route declaration', () => {
  it('compiles when the handler returns the declared shape and reads only the path parameters, and fails otherwise', () => {
    const source = readFileSync(fixture, 'utf8');
    const stripped = join(scratch, 'stripped.ts');
    const lines = source.split('\n');
    const expected = lines.flatMap((line, at) => (/^\s*\/\/ @ts-expect-error/.test(line) ? [at + 1] : []));
    writeFileSync(
      stripped,
      lines
        .map((line) => (/^\s*\/\/ @ts-expect-error/.test(line) ? '' : line))
        .join('\n')
        .replace("'../../daemon/http/route.js'", JSON.stringify(join(root, 'daemon/http/route.js'))),
    );
    const diagnostics = compile([fixture, stripped]);
    const where = (d: ts.Diagnostic) =>
      `${d.file?.fileName}:${d.file ? d.file.getLineAndCharacterOfPosition(d.start!).line + 1 : 0} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
    expect(diagnostics.filter((d) => d.file?.fileName === fixture).map(where)).toEqual([]);
    const failing = diagnostics.filter((d) => d.file?.fileName === stripped);
    // The line after each removed directive is where the error is.
    expect(
      [...new Set(failing.map((d) => d.file!.getLineAndCharacterOfPosition(d.start!).line))].sort((a, b) => a - b),
      failing.map(where).join('\n'),
    ).toEqual(expected);
    expect(expected).toHaveLength(4);
    const messages = failing.map(where).join('\n');
    expect(messages).toContain("Property 'total' is missing");
    expect(messages).toContain("Property 'uid' does not exist");
    expect(messages).toContain('"Healthy"');
  }, 120_000);
});
