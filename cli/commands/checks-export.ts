import { writeFile } from 'node:fs/promises';
import type { CommandDeps } from '../context.js';
import { CliError, usageError } from '../errors.js';
import { allChecks } from './checks-fetch.js';
import { checksFileText, exportedCheck } from './checks-file.js';
import { resolveOrg } from './checks-org.js';

/** `svc checks export [--label k=v]... [-o FILE]`: the checks file `svc checks apply` reads. */
export async function run(options: { label?: string[]; output?: string }, deps: CommandDeps): Promise<void> {
  const labels = options.label ?? [];
  for (const label of labels) if (!/^[^=]+=/.test(label)) throw usageError(`--label takes key=value; got "${label}"`);
  const org = await resolveOrg({}, deps);
  const checks = (await allChecks(deps.client(), org, labels)).map(exportedCheck);
  const text = checksFileText(checks, deps.out.jsonMode ? 'json' : 'yaml');
  if (!options.output) return void process.stdout.write(text);
  try {
    await writeFile(options.output, text);
  } catch (error) {
    throw new CliError(`cannot write ${options.output}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  process.stderr.write(`exported ${checks.length} check${checks.length === 1 ? '' : 's'} of ${org} to ${options.output}\n`);
}
