import type { Command } from 'commander';

/** One place in the command tree where completion offers words. */
export interface CompletionNode {
  /** The subcommand path, e.g. "checks list" ("" for the top level). */
  path: string;
  /** Subcommands and their descriptions. */
  commands: { name: string; description: string }[];
  /** This command's own options (the global ones are in `CompletionModel.globals`). */
  options: CompletionOption[];
  /** Fixed values of its first argument, e.g. bash, zsh, fish. */
  choices: string[];
}

export interface CompletionOption {
  long?: string;
  short?: string;
  description: string;
  /** Whether a value follows; `file` when the value is a path. */
  value: 'none' | 'text' | 'file';
}

export interface CompletionModel {
  globals: CompletionOption[];
  nodes: CompletionNode[];
}

const optionsOf = (command: Command): CompletionOption[] =>
  command.options
    .filter((option) => !option.hidden)
    .map((option) => ({
      long: option.long,
      short: option.short,
      description: option.description,
      value: !option.required && !option.optional ? 'none' : /<path>|<file>/.test(option.flags) ? 'file' : 'text',
    }));

/** The words completion offers, read from the declared commands so it can never drift from them. */
export function completionModel(program: Command): CompletionModel {
  const nodes: CompletionNode[] = [];
  const walk = (command: Command, path: string) => {
    const first = command.registeredArguments[0];
    nodes.push({
      path,
      commands: command.commands.map((c) => ({ name: c.name(), description: c.description() })),
      options: path === '' ? [] : optionsOf(command),
      choices: first?.argChoices ?? [],
    });
    for (const sub of command.commands) walk(sub, path ? `${path} ${sub.name()}` : sub.name());
  };
  walk(program, '');
  const globals = optionsOf(program);
  globals.push({ long: '--help', short: '-h', description: 'show help', value: 'none' });
  return { globals, nodes };
}
