import type { Command } from 'commander';

interface Level {
  path: string;
  words: string[];
}

function levels(command: Command, path: string): Level[] {
  const options = command.options.flatMap((option) =>
    [option.long, option.short].filter((f): f is string => !!f),
  );
  const subcommands = command.commands.map((sub) => sub.name());
  const here: Level = { path, words: [...subcommands, ...options, '--help'] };
  return [
    here,
    ...command.commands.flatMap((sub) => levels(sub, path ? `${path} ${sub.name()}` : sub.name())),
  ];
}

function valueOptions(command: Command): string[] {
  const own = command.options.filter((o) => o.required || o.optional).flatMap((o) => [o.long, o.short]);
  return [...own.filter((f): f is string => !!f), ...command.commands.flatMap(valueOptions)];
}

/**
 * A bash completion function generated from the command tree (so it never lags behind it): the
 * words typed so far that name commands select the level whose subcommands and options complete.
 * zsh runs the same function through bashcompinit.
 */
export function bashCompletion(program: Command): string {
  const all = levels(program, '');
  const global = program.options.flatMap((o) => [o.long, o.short]).filter((f): f is string => !!f);
  const cases = all
    .map(({ path, words }) => `    "${path}") opts="${[...new Set([...words, ...global])].join(' ')}" ;;`)
    .join('\n');
  const paths = all.map(({ path }) => path).join('|');
  const takesValue = [...new Set(valueOptions(program))].join('|');
  return `# waldur-cli completion: source it, e.g. in ~/.bashrc: source <(waldur-cli completion bash)
_waldur_cli() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="" word i opts
  local paths="|${paths}|"
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    case "$word" in
      ${takesValue}) ((i++)); continue ;;
      -*) continue ;;
    esac
    local next="\${path:+$path }$word"
    [[ "$paths" == *"|$next|"* ]] && path="$next"
  done
  case "$path" in
${cases}
    *) opts="" ;;
  esac
  COMPREPLY=($(compgen -W "$opts" -- "$cur"))
}
complete -F _waldur_cli waldur-cli
`;
}

export function zshCompletion(program: Command): string {
  return `# waldur-cli completion for zsh: source <(waldur-cli completion zsh)
autoload -U +X bashcompinit && bashcompinit
${bashCompletion(program)}`;
}
