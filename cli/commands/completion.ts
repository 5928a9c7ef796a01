import { completionModel } from '../completion-model.js';
import { bashScript, fishScript, zshScript } from '../completion-scripts.js';
import type { CommandDeps } from '../context.js';
import { buildProgram } from '../main.js';

const SCRIPTS = { bash: bashScript, zsh: zshScript, fish: fishScript };

/** `svc completion bash|zsh|fish`: the script, generated from the declared commands. */
export async function run(options: { args: string[] }, _deps: CommandDeps): Promise<void> {
  const shell = options.args[0] as keyof typeof SCRIPTS;
  process.stdout.write(SCRIPTS[shell](completionModel(buildProgram())));
}
