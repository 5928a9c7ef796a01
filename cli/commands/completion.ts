import type { Command } from 'commander';
import { completionModel } from '../completion-model.js';
import { bashScript, fishScript, zshScript } from '../completion-scripts.js';

const SCRIPTS = { bash: bashScript, zsh: zshScript, fish: fishScript };

/** `svc completion bash|zsh|fish`: the script, generated from the program's declared commands. */
export function completionScript(shell: string, program: Command): string {
  return SCRIPTS[shell as keyof typeof SCRIPTS](completionModel(program));
}
