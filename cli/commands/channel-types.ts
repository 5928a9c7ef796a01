import type { ChannelTypeInfo } from '../../contract/index.js';
import type { CommandDeps } from '../context.js';
import { usageError } from '../errors.js';

/**
 * `svc channels types [TYPE]`: the channel types as a table, or one type with its settings, which
 * of them are secrets, and a sample to start from. --json prints the daemon's answer (with the
 * JSON Schema of the settings).
 */
export async function run(options: { args: string[] }, deps: CommandDeps): Promise<void> {
  const [name] = options.args;
  const types = await deps.client().get<ChannelTypeInfo[]>('/channel-types');
  const { out } = deps;
  if (!name) {
    if (out.jsonMode) return out.json(types);
    out.table(
      types.map((t) => ({ type: t.type, title: t.title, secrets: t.secrets.join(', ') || '(none)' })),
      [
        { key: 'type', title: 'TYPE' },
        { key: 'title', title: 'TITLE' },
        { key: 'secrets', title: 'SECRETS' },
      ],
    );
    return out.info(`\n${types.length} types; svc channels types TYPE shows one with a sample`);
  }
  const type = types.find((t) => t.type === name);
  if (!type) throw usageError(`no channel type "${name}"; the types are ${types.map((t) => t.type).join(', ')}`);
  if (out.jsonMode) return out.json(type);
  out.line(`${out.color.bold(type.type)}: ${type.title}`);
  out.line(type.description);
  const properties = Object.keys((type.configSchema.properties as Record<string, unknown> | undefined) ?? {});
  out.line(`settings: ${properties.join(', ')}`);
  if (type.secrets.length > 0) out.line(`secrets (shown masked): ${type.secrets.join(', ')}`);
  out.line();
  out.line(`sample settings (svc channels create --type ${type.type} --config-file FILE):`);
  out.line(JSON.stringify(type.sample, null, 2));
}
