import type { List, SecretSummary, SecretsRotated, SecretWritten } from '../../contract/index.js';
import type { CommandDeps } from '../context.js';
import { usageError } from '../errors.js';
import { readStdin } from '../prompts.js';
import { orgPath, resolveOrg } from './checks-org.js';

// The organization's secrets: values go in and never come out. A value is never taken from an
// argument, which would leave it in the shell history and in the process list.

const NAME = /^[A-Z][A-Z0-9_]{0,63}$/;

function checkedName(name: string | undefined): string {
  if (!name || !NAME.test(name))
    throw usageError(`a secret name is an upper-case letter, then up to 63 upper-case letters, digits and "_" (e.g. DB_PASSWORD); got "${name ?? ''}"`);
  return name;
}

/** The value from standard input (one trailing line break dropped), an environment variable, or a hidden prompt. */
async function secretValue(options: { stdin?: boolean; fromEnv?: string }, name: string, deps: CommandDeps): Promise<string> {
  if (options.stdin && options.fromEnv) throw usageError('pass either --stdin or --from-env, not both');
  let value: string;
  if (options.stdin) value = (await readStdin()).toString('utf8').replace(/\r?\n$/, '');
  else if (options.fromEnv) {
    const fromEnv = deps.env[options.fromEnv];
    if (fromEnv === undefined) throw usageError(`the environment variable ${options.fromEnv} is not set`);
    value = fromEnv;
  } else value = await deps.prompts.password(`Value of ${name} (not shown)`, '--stdin or --from-env VAR');
  if (value === '') throw usageError('the secret value is empty');
  return value;
}

/** `svc secrets set NAME [--stdin | --from-env VAR]`: creates or replaces a secret. */
export async function set(options: { org?: string; stdin?: boolean; fromEnv?: string; args: string[] }, deps: CommandDeps): Promise<void> {
  const name = checkedName(options.args[0]);
  const org = await resolveOrg(options, deps);
  const value = await secretValue(options, name, deps);
  const result = await deps.client().request<SecretWritten>('PUT', `${orgPath(org)}/secrets/${name}`, { body: { value } });
  if (deps.out.jsonMode) return deps.out.json({ ...result, org });
  deps.out.success(`${result.created ? 'set' : 'replaced'} secret ${name} in ${org}`);
}

/** `svc secrets list`: names, dates and the checks that use each; never a value. */
export async function list(options: { org?: string }, deps: CommandDeps): Promise<void> {
  const org = await resolveOrg(options, deps);
  const { items } = await deps.client().get<List<SecretSummary>>(`${orgPath(org)}/secrets`);
  if (deps.out.jsonMode) return deps.out.json(items);
  if (items.length === 0) return deps.out.info(`no secrets in ${org}`);
  deps.out.table(
    items.map((secret) => ({ ...secret, used: secret.usedBy.join(', ') || '(unused)' })),
    [
      { key: 'name', title: 'NAME' },
      { key: 'updatedAt', title: 'UPDATED' },
      { key: 'used', title: 'USED BY' },
    ],
  );
}

/** `svc secrets delete NAME`: asks first unless --yes. */
export async function remove(options: { org?: string; args: string[] }, deps: CommandDeps): Promise<void> {
  const name = checkedName(options.args[0]);
  const org = await resolveOrg(options, deps);
  if (!deps.globals.yes) {
    const sure = await deps.prompts.confirm(`Delete secret ${name} in ${org}? Checks that use it will fail.`, '--yes');
    if (!sure) return deps.out.info('nothing deleted');
  }
  await deps.client().request('DELETE', `${orgPath(org)}/secrets/${name}`);
  if (deps.out.jsonMode) return deps.out.json({ deleted: name, org });
  deps.out.success(`deleted secret ${name}`);
}

/** `svc admin secrets rotate`: re-encrypts every stored secret with the daemon's current key. */
export async function rotate(_options: unknown, deps: CommandDeps): Promise<void> {
  const result = await deps.client().post<SecretsRotated>('/system/secrets/rotate');
  if (deps.out.jsonMode) return deps.out.json(result);
  deps.out.success(
    `re-encrypted ${result.reencrypted} stored secret${result.reencrypted === 1 ? '' : 's'} with key ${result.keyId}; once every replica runs with this key, SVC_SECRET_KEY_PREVIOUS may be removed`,
  );
}
