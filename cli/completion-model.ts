import type { Command } from 'commander';
import { ARGUMENT_VALUES, OPTION_VALUES } from './completion-values.js';

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
  /** The values it takes when they are a fixed set (check states, types, roles, import sources). */
  values?: readonly string[];
}

export interface CompletionModel {
  globals: CompletionOption[];
  nodes: CompletionNode[];
}

const optionsOf = (command: Command, path = ''): CompletionOption[] =>
  command.options
    .filter((option) => !option.hidden)
    .map((option) => {
      const values = option.argChoices ?? (option.long ? OPTION_VALUES[path]?.[option.long] : undefined);
      return {
        long: option.long,
        short: option.short,
        description: option.description,
        value: !option.required && !option.optional ? 'none' : /<path>|<file>/.test(option.flags) ? 'file' : 'text',
        ...(values ? { values } : {}),
      };
    });

/** The words completion offers, read from the declared commands so it can never drift from them. */
export function completionModel(program: Command): CompletionModel {
  const nodes: CompletionNode[] = [];
  const walk = (command: Command, path: string) => {
    const first = command.registeredArguments[0];
    nodes.push({
      path,
      commands: command.commands.map((c) => ({ name: c.name(), description: c.description() })),
      options: path === '' ? [] : optionsOf(command, path),
      choices: [...(first?.argChoices ?? []), ...(ARGUMENT_VALUES[path] ?? [])],
    });
    for (const sub of command.commands) walk(sub, path ? `${path} ${sub.name()}` : sub.name());
  };
  walk(program, '');
  const globals = optionsOf(program);
  globals.push({ long: '--help', short: '-h', description: 'show help', value: 'none' });
  return { globals, nodes };
}
