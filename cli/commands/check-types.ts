import type { CommandDeps } from '../context.js';
import type { CheckType } from '../../contract/index.js';

/**
 * `svc check-types [TYPE]`: the catalog as a table, or one type in full with a sample check
 * to start from. --json prints the daemon's answer (with the JSON Schema of the config).
 */
export async function run(options: { args: string[] }, deps: CommandDeps): Promise<void> {
  const [name] = options.args;
  const client = deps.client();
  const types = await client.get<CheckType[]>('/check-types');
  const { out } = deps;
  if (!name) {
    if (out.jsonMode) return out.json(types);
    out.table(
      types.map((t) => ({ type: t.type, title: t.title, target: t.target.kind === 'none' ? '(none)' : t.target.description })),
      [
        { key: 'type', title: 'TYPE' },
        { key: 'title', title: 'TITLE' },
        { key: 'target', title: 'TARGET' },
      ],
    );
    return out.info(`\n${types.length} types; svc check-types TYPE shows one with a sample check`);
  }
  const type = types.find((t) => t.type === name);
  // Ask for the sample even when the type is unknown: the daemon's 404 lists the known types.
  const sample = await client.get<Record<string, unknown>>(`/check-types/${encodeURIComponent(name)}/sample`);
  if (out.jsonMode) return out.json({ ...type, sample });
  out.line(`${out.color.bold(type!.type)}: ${type!.title}`);
  out.line(type!.description);
  out.line(`target: ${type!.target.kind === 'none' ? '(none)' : type!.target.description}${type!.target.example ? ` e.g. ${type!.target.example}` : ''}`);
  out.line();
  out.line('sample check (POST it to /orgs/{org}/checks):');
  out.line(JSON.stringify(sample, null, 2));
}
