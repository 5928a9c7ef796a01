import kleur from 'kleur';

/** Printing for commands: plain lines for people, `json` for machines, colour only on a TTY. */
export interface Output {
  readonly jsonMode: boolean;
  readonly color: typeof kleur;
  line(text?: string): void;
  /** Human-only: suppressed with --json, so stdout stays machine-readable. */
  info(text: string): void;
  success(text: string): void;
  warn(text: string): void;
  json(value: unknown): void;
  table(rows: readonly object[], columns: { key: string; title: string }[]): void;
}

export function createOutput(options: { json: boolean; stdout?: NodeJS.WriteStream; stderr?: NodeJS.WriteStream; env?: NodeJS.ProcessEnv }): Output {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const env = options.env ?? process.env;
  kleur.enabled = Boolean(stdout.isTTY) && !('NO_COLOR' in env) && env.TERM !== 'dumb';
  const write = (stream: NodeJS.WriteStream, text: string) => stream.write(`${text}\n`);
  return {
    jsonMode: options.json,
    color: kleur,
    line: (text = '') => write(stdout, text),
    info: (text) => {
      if (!options.json) write(stdout, text);
    },
    success: (text) => {
      if (!options.json) write(stdout, kleur.green('✔ ') + text);
    },
    warn: (text) => write(stderr, kleur.yellow('warning: ') + text),
    json: (value) => write(stdout, JSON.stringify(value, null, 2)),
    table(rows, columns) {
      if (rows.length === 0) return;
      const cell = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));
      const widths = columns.map((c) => Math.max(c.title.length, ...rows.map((r) => cell((r as Record<string, unknown>)[c.key]).length)));
      write(
        stdout,
        kleur.bold(
          columns
            .map((c, i) => c.title.padEnd(widths[i]))
            .join('  ')
            .trimEnd(),
        ),
      );
      for (const row of rows)
        write(
          stdout,
          columns
            .map((c, i) => cell((row as Record<string, unknown>)[c.key]).padEnd(widths[i]))
            .join('  ')
            .trimEnd(),
        );
    },
  };
}
