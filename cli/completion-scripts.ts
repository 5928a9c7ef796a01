import type { CompletionModel, CompletionOption } from './completion-model.js';

// The scripts find where the cursor is in the command tree by walking the words typed so far
// and keeping those that name a subcommand of the path so far; flags and their values never do.

/** Single-quoted for sh and fish: no expansion at all. */
const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
const fishQuote = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

const flagsOf = (options: CompletionOption[]) => options.flatMap((o) => [o.long, o.short].filter((f): f is string => Boolean(f)));

/** Bash (4 or later); zsh runs it through bashcompinit. */
export function bashScript(model: CompletionModel): string {
  const globals = flagsOf(model.globals);
  const words = model.nodes.map((n) => `    ${quote(n.path)}) REPLY=${quote([...n.commands.map((c) => c.name), ...n.choices].join(' '))} ;;`);
  const flags = model.nodes.map((n) => `    ${quote(n.path)}) REPLY=${quote([...new Set([...flagsOf(n.options), ...globals])].join(' '))} ;;`);
  const fileFlags = [...model.globals, ...model.nodes.flatMap((n) => n.options)].filter((o) => o.value === 'file');
  const fileCase = [...new Set(flagsOf(fileFlags))].join('|');
  // The values of an option with a fixed set, by command path and the option just typed.
  const values = model.nodes.flatMap((n) =>
    n.options.filter((o) => o.values).flatMap((o) => flagsOf([o]).map((flag) => `    ${quote(`${n.path}|${flag}`)}) REPLY=${quote(o.values!.join(' '))} ;;`)),
  );
  return `# svc completion for bash: source <(svc completion bash)
__svc_words() {
  case "$1" in
${words.join('\n')}
    *) REPLY='' ;;
  esac
}
__svc_values() {
  case "$1|$2" in
${values.join('\n')}
    *) return 1 ;;
  esac
}
__svc_flags() {
  case "$1" in
${flags.join('\n')}
    *) REPLY=${quote(globals.join(' '))} ;;
  esac
}
_svc() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="" path="" word i
  [ "$COMP_CWORD" -gt 0 ] && prev="\${COMP_WORDS[COMP_CWORD-1]}"
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    __svc_words "$path"
    case " $REPLY " in *" $word "*) path="\${path:+$path }$word" ;; esac
  done
${fileCase ? `  case "$prev" in ${fileCase}) COMPREPLY=($(compgen -f -- "$cur")); return 0 ;; esac\n` : ''}  if __svc_values "$path" "$prev"; then COMPREPLY=($(compgen -W "$REPLY" -- "$cur")); return 0; fi
  if [[ "$cur" == -* ]]; then __svc_flags "$path"; else __svc_words "$path"; fi
  COMPREPLY=($(compgen -W "$REPLY" -- "$cur"))
}
complete -o default -F _svc svc
`;
}

/** Zsh: the bash script through zsh's bashcompinit, which runs bash completion functions. */
export function zshScript(model: CompletionModel): string {
  return `#compdef svc
# svc completion for zsh: svc completion zsh > "\${fpath[1]}/_svc", or source <(svc completion zsh)
autoload -U +X bashcompinit && bashcompinit
${bashScript(model).replace(/^# svc completion for bash.*\n/, '')}`;
}

/** Fish: one complete line per subcommand and option, each under a condition on the path. */
export function fishScript(model: CompletionModel): string {
  const lines: string[] = [];
  const option = (o: CompletionOption, condition?: string) => {
    const parts = ['complete -c svc'];
    if (condition) parts.push(`-n ${fishQuote(`__svc_is ${quote(condition)}`)}`);
    if (o.long) parts.push(`-l ${o.long.replace(/^--/, '')}`);
    if (o.short) parts.push(`-s ${o.short.replace(/^-/, '')}`);
    if (o.value === 'text') parts.push('-x');
    if (o.values) parts.push(`-a ${fishQuote(o.values.join(' '))}`);
    if (o.value === 'file') parts.push('-r -F');
    parts.push(`-d ${fishQuote(o.description)}`);
    return parts.join(' ');
  };
  for (const node of model.nodes) {
    const condition = `-n ${fishQuote(`__svc_is ${quote(node.path)}`)}`;
    for (const command of node.commands) lines.push(`complete -c svc -f ${condition} -a ${fishQuote(command.name)} -d ${fishQuote(command.description)}`);
    for (const choice of node.choices) lines.push(`complete -c svc -f ${condition} -a ${fishQuote(choice)}`);
    for (const o of node.options) lines.push(option(o, node.path));
  }
  for (const o of model.globals) lines.push(option(o));
  const words = model.nodes.map((n) => `    case ${fishQuote(n.path)}\n      printf '%s\\n' ${n.commands.map((c) => fishQuote(c.name)).join(' ')}`);
  return `# svc completion for fish: svc completion fish > ~/.config/fish/completions/svc.fish
function __svc_words
  switch $argv[1]
${words.join('\n')}
  end
end
function __svc_path
  set -l path ''
  for word in (commandline -opc)[2..-1]
    if contains -- $word (__svc_words $path)
      set path (string trim -- "$path $word")
    end
  end
  echo $path
end
function __svc_is
  set -l path (__svc_path)
  test "$path" = "$argv[1]"
end
complete -c svc -f
${lines.join('\n')}
`;
}
