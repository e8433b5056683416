/**
 * Shell completion. yargs' own script names a bash function and a `complete` target after the
 * program name, which breaks for the kubectl plugin ("kubectl dc" has a space: `_kubectl
 * dc_yargs_completions` is not a function name). The script here completes the executable
 * (`dcctl` or `kubectl-dc`), and `kubectl dc <TAB>` goes through kubectl's own plugin
 * completion, which runs `kubectl_complete-dc __complete <args>` (bin/kubectl_complete-dc.js)
 * and reads Cobra's answer format (`cobraCompletions`).
 */

export type CompletionShell = 'bash' | 'zsh';

/** The executable a program name is invoked as: `kubectl dc` → `kubectl-dc`. */
export function executableName(programName: string): string {
  return programName.trim().replace(/\s+/g, '-');
}

/** A bash identifier derived from the executable name. */
function functionName(executable: string): string {
  return `_${executable.replace(/[^A-Za-z0-9_]/g, '_')}_completions`;
}

/**
 * The completion script for `programName`. Both shells ask the program itself for candidates
 * (`<exe> --get-yargs-completions <words>`), so the script never goes stale.
 */
export function completionScript(programName: string, shell: CompletionShell = 'bash'): string {
  const exe = executableName(programName);
  const fn = functionName(exe);
  const pluginNote = exe === programName ? '' : [
    `# This completes the executable \`${exe}\`. \`${programName} <TAB>\` is completed by kubectl itself`,
    `# (kubectl >= 1.26) when \`kubectl_complete-${exe.replace(/^kubectl-/, '')}\` (shipped in bin/) is on PATH.`,
    '',
  ].join('\n');
  if (shell === 'zsh') {
    return `#compdef ${exe}
###-begin-${exe}-completions-###
# zsh completion for ${programName}. Installation: source <(${programName} completion zsh)
${pluginNote}${fn}() {
  local reply
  local si=$IFS
  IFS=$'\\n' reply=($(COMP_CWORD="$((CURRENT-1))" COMP_LINE="$BUFFER" COMP_POINT="$CURSOR" ${exe} --get-yargs-completions "\${words[@]}"))
  IFS=$si
  _describe 'values' reply
}
compdef ${fn} ${exe}
###-end-${exe}-completions-###
`;
  }
  return `###-begin-${exe}-completions-###
# bash completion for ${programName}. Installation: source <(${programName} completion)
${pluginNote}${fn}()
{
    local cur_word args type_list
    cur_word="\${COMP_WORDS[COMP_CWORD]}"
    args=("\${COMP_WORDS[@]}")
    mapfile -t type_list < <(${exe} --get-yargs-completions "\${args[@]}")
    mapfile -t COMPREPLY < <(compgen -W "$( printf '%q ' "\${type_list[@]}" )" -- "\${cur_word}")
    return 0
}
complete -o bashdefault -o default -F ${fn} ${exe}
###-end-${exe}-completions-###
`;
}

/** Cobra's ShellCompDirectiveNoFileComp: offer no file names when nothing matches. */
const NoFileCompletion = 4;

/**
 * The answer kubectl expects from a plugin's `kubectl_complete-<plugin> __complete` call:
 * matching candidates one per line, then `:<directive>`.
 */
export function cobraCompletions(candidates: readonly string[], current: string): string {
  const matching = candidates.filter((c) => c !== '' && c.startsWith(current));
  return `${[...new Set(matching)].map((c) => `${c}\n`).join('')}:${NoFileCompletion}\n`;
}
