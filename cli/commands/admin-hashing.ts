import type { CommandDeps } from '../context.js';
import { usageError } from '../errors.js';
import type { HashingView } from '../../contract/index.js';

const KEYS = ['algorithm', 'argon2.memory', 'argon2.time', 'argon2.threads', 'argon2.keyLength', 'argon2.saltLength', 'bcrypt.cost', 'rehashOnLogin'];

function print(view: HashingView, deps: CommandDeps): void {
  if (deps.out.jsonMode) return deps.out.json(view);
  const { out } = deps;
  const e = view.effective;
  out.line(out.color.bold('In force now'));
  out.line(`  algorithm      ${e.algorithm}`);
  out.line(
    `  argon2id       memory ${e.argon2.memory} KiB, time ${e.argon2.time}, threads ${e.argon2.threads}, key ${e.argon2.keyLength} B, salt ${e.argon2.saltLength} B`,
  );
  out.line(`  bcrypt         cost ${e.bcrypt.cost}`);
  out.line(`  rehashOnLogin  ${e.rehashOnLogin}`);
  out.line(out.color.bold('Stored overrides') + (Object.keys(view.overrides).length ? '' : ' (none: the configuration applies)'));
  for (const key of KEYS) {
    const value = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], view.overrides);
    if (value !== undefined && value !== null) out.line(`  ${key} = ${value}`);
  }
  if (view.pendingRestart) out.warn('the stored overrides differ from those in force: restart the daemon to apply them');
}

/** `svc admin hashing show` */
export async function show(_options: unknown, deps: CommandDeps): Promise<void> {
  print(await deps.client().get<HashingView>('/system/hashing'), deps);
}

/** `svc admin hashing set KEY=VALUE...`: merges into the stored overrides. */
export async function set(options: { args: string[] }, deps: CommandDeps): Promise<void> {
  const client = deps.client();
  const current = await client.get<HashingView>('/system/hashing');
  const overrides = structuredClone(current.overrides) as Record<string, unknown>;
  for (const assignment of options.args) {
    const match = /^([a-zA-Z0-9.]+)=(.*)$/.exec(assignment);
    if (!match || !KEYS.includes(match[1])) throw usageError(`expected KEY=VALUE with KEY one of ${KEYS.join(', ')}; got "${assignment}"`);
    const [section, field] = match[1].split('.');
    const value = parseValue(match[2]);
    if (field) {
      const inner = ((overrides[section] as Record<string, unknown>) ??= {});
      inner[field] = value;
    } else overrides[section] = value;
  }
  const view = await client.request<HashingView>('PUT', '/system/hashing', { body: overrides });
  print(view, deps);
  deps.out.success('stored; restart the daemon to apply');
}

/** `svc admin hashing preset NAME`: stores a preset as the overrides. */
export async function preset(options: { args: string[] }, deps: CommandDeps): Promise<void> {
  const client = deps.client();
  const name = options.args[0];
  const current = await client.get<HashingView>('/system/hashing');
  const chosen = current.presets[name];
  if (!chosen) throw usageError(`unknown preset ${name}; choose one of ${Object.keys(current.presets).join(', ')}`);
  const view = await client.request<HashingView>('PUT', '/system/hashing', { body: chosen });
  print(view, deps);
  deps.out.success(`preset ${name} stored; restart the daemon to apply`);
}

/** Numbers and booleans as such; an empty value means "inherit" (null). */
function parseValue(text: string): unknown {
  if (text === '') return null;
  if (/^-?\d+$/.test(text)) return Number(text);
  if (text === 'true' || text === 'false') return text === 'true';
  return text;
}
