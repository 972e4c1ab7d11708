// Shell completion scripts for bash, zsh and fish, generated from the command declarations: commands,
// subcommands (and their aliases), flags, the values of flags with a fixed set of choices, and file names after
// a flag whose value is a FILE or a DIR (--upload, --report, --out, --db, ...).

import type { FlagSpec } from "./args.js";
import { allFlags, type CommandDeclaration, isGroup } from "./spec.js";

export const SHELLS = ["bash", "zsh", "fish"] as const;
export type Shell = (typeof SHELLS)[number];

interface Node {
  path: string;
  words: { word: string; summary: string }[];
  flags: FlagSpec[];
}

/** A declared command with the other names it answers to (registry.ts). */
export interface Completable {
  spec: CommandDeclaration;
  aliases: readonly string[];
}

/** Whether a flag's value is a path (`FILE`, `DIR`, `FILE|-`, `FILE|:memory:`): file names are offered after it. */
const takesPath = (flag: FlagSpec) => flag.type === "string" && /\b(FILE|DIR)\b/.test(flag.value ?? "");

/** Every completable path ("", "sites", "sites list") with the words and flags offered there. */
function nodes(commands: readonly Completable[]): { nodes: Node[]; aliases: [string, string][] } {
  const out: Node[] = [];
  const aliases: [string, string][] = [];
  out.push({
    path: "",
    words: commands.map(({ spec }) => ({ word: spec.name, summary: spec.summary })),
    flags: [
      { name: "help", type: "boolean", description: "show help" },
      { name: "version", type: "boolean", description: "print the version" },
    ],
  });
  for (const { spec, aliases: names } of commands) {
    for (const alias of names) aliases.push([alias, spec.name]);
    if (!isGroup(spec)) {
      out.push({ path: spec.name, words: [], flags: allFlags(spec) });
      continue;
    }
    out.push({ path: spec.name, words: spec.subcommands.map((s) => ({ word: s.name, summary: s.summary })), flags: [] });
    for (const leaf of spec.subcommands) {
      for (const alias of leaf.aliases ?? []) aliases.push([`${spec.name} ${alias}`, `${spec.name} ${leaf.name}`]);
      out.push({ path: `${spec.name} ${leaf.name}`, words: [], flags: allFlags(leaf) });
    }
  }
  return { nodes: out, aliases };
}

function flagWords(flags: readonly FlagSpec[]): string[] {
  return flags.flatMap((f) => [`--${f.name}`, ...(f.negatable ? [`--no-${f.name}`] : [])]);
}

/** Flags that take a value (the word after them is not a command word). */
function valueFlags(all: readonly Node[]): string[] {
  return [
    ...new Set(
      all.flatMap((n) => n.flags.filter((f) => f.type === "string" && !f.optionalValue).flatMap((f) => [`--${f.name}`, ...(f.short ? [`-${f.short}`] : [])])),
    ),
  ].sort();
}

/** The flags after which file names are offered (bash and zsh: by name, whatever the command). */
function pathFlags(all: readonly Node[]): string[] {
  return [...new Set(all.flatMap((n) => n.flags.filter(takesPath).map((f) => `--${f.name}`)))].sort();
}

/** `path --flag` and the values it allows, for each flag with fixed choices: per command, since one flag name
 * may allow other values elsewhere (`siteops emulator --profile minimal`, `siteops sites list --profile NAME`). */
function choiceFlags(all: readonly Node[]): [string, readonly string[]][] {
  return all.flatMap((n) => n.flags.filter((f) => f.choices).map((f): [string, readonly string[]] => [`${n.path} --${f.name}`, f.choices!]));
}

const q = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;

export function completionScript(shell: Shell, commands: readonly Completable[]): string {
  const { nodes: all, aliases } = nodes(commands);
  if (shell === "fish") return fish(all, aliases);
  const values = valueFlags(all).join("|");
  const choices = choiceFlags(all)
    .map(([key, list]) => `      ${q(key)}) words=${q(list.join(" "))} ;;`)
    .join("\n");
  const files = pathFlags(all).join("|");
  const table = all.map((n) => `      ${q(n.path)}) words=${q([...n.words.map((w) => w.word), ...flagWords(n.flags)].join(" "))} ;;`).join("\n");
  const alias = aliases.map(([from, to]) => `      ${q(from)}) path=${q(to)} ;;`).join("\n");
  // The same word logic for both shells: find the command path in the words before the cursor (skipping
  // flags and the values of flags that take one), then offer what that path takes.
  const body = `
  local path="" word skip=0 i
  for ((i = first; i < current; i++)); do
    word="\${line[i]}"
    if ((skip)); then skip=0; continue; fi
    case "$word" in
      ${values || "--never"}) skip=1; continue ;;
      -*) continue ;;
    esac
    case "$path" in
      ""|*" "*) [[ -z "$path" ]] && path="$word" ;;
      *) path="$path $word" ;;
    esac
    case "$path" in
${alias || "      __none__) ;;"}
    esac
  done
  local prev="\${line[current-1]}" words=""
  case "$prev" in
    ${files}) __siteops_files=1; return ;;
  esac
  case "$path $prev" in
${choices || "      __none__) ;;"}
    *)
      case "$path" in
${table}
      esac ;;
  esac
  __siteops_words="$words"`;
  if (shell === "bash") {
    return `# bash completion for siteops. Install: siteops completion bash > ~/.local/share/bash-completion/completions/siteops
# (or: source <(siteops completion bash) in ~/.bashrc)
__siteops_candidates() {
  local first=1 current="$COMP_CWORD"
  local -a line=("\${COMP_WORDS[@]}")
  __siteops_files=0 __siteops_words=""${body}
}
_siteops() {
  local cur="\${COMP_WORDS[COMP_CWORD]}"
  __siteops_candidates
  if ((__siteops_files)); then
    COMPREPLY=($(compgen -f -- "$cur"))
  else
    COMPREPLY=($(compgen -W "$__siteops_words" -- "$cur"))
  fi
}
complete -o default -F _siteops siteops
`;
  }
  return `#compdef siteops
# zsh completion for siteops. Install: siteops completion zsh > "\${fpath[1]}/_siteops" (then restart zsh),
# or: source <(siteops completion zsh) in ~/.zshrc after compinit.
__siteops_candidates() {
  local first=2 current=$CURRENT
  local -a line=("\${words[@]}")
  __siteops_files=0 __siteops_words=""${body}
}
_siteops() {
  local __siteops_files __siteops_words
  __siteops_candidates
  if ((__siteops_files)); then
    _files
  else
    local -a candidates=(\${=__siteops_words})
    compadd -- $candidates
  fi
}
if [[ "\${zsh_eval_context[-1]}" == loadautofunc ]]; then
  _siteops "$@"
else
  compdef _siteops siteops
fi
`;
}

function fish(all: readonly Node[], aliases: readonly [string, string][]): string {
  const lines = [
    "# fish completion for siteops. Install: siteops completion fish > ~/.config/fish/completions/siteops.fish",
    "function __siteops_path",
    "    set -l tokens (commandline -opc)",
    "    set -l path",
    "    set -l skip 0",
    `    set -l values ${valueFlags(all).join(" ")}`,
    "    for t in $tokens[2..-1]",
    "        if test $skip -eq 1",
    "            set skip 0",
    "            continue",
    "        end",
    "        if contains -- $t $values",
    "            set skip 1",
    "            continue",
    "        end",
    "        string match -q -- '-*' $t; and continue",
    "        set -a path $t",
    "        test (count $path) -ge 2; and break",
    "    end",
    "    if test (count $path) -eq 0",
    "        echo ''",
    "        return",
    "    end",
    "    switch $path[1]",
    ...aliases.filter(([from]) => !from.includes(" ")).map(([from, to]) => `        case ${q(from)}\n            set path[1] ${q(to)}`),
    "    end",
    "    set -l joined (string join ' ' $path)",
    "    switch $joined",
    ...aliases.filter(([from]) => from.includes(" ")).map(([from, to]) => `        case ${q(from)}\n            set joined ${q(to)}`),
    "    end",
    "    echo $joined",
    "end",
    "complete -c siteops -f",
  ];
  for (const n of all) {
    const cond = `test (__siteops_path) = ${q(n.path)}`;
    for (const w of n.words) lines.push(`complete -c siteops -n ${q(cond)} -a ${q(w.word)} -d ${q(w.summary)}`);
    for (const f of n.flags) {
      const parts = [`complete -c siteops -n ${q(cond)} -l ${f.name}`];
      if (f.short) parts.push(`-s ${f.short}`);
      if (f.type === "string" && !f.optionalValue) parts.push(takesPath(f) ? "-r -F" : "-x");
      if (f.choices) parts.push(`-a ${q(f.choices.join(" "))}`);
      parts.push(`-d ${q(f.description)}`);
      lines.push(parts.join(" "));
      if (f.negatable) lines.push(`complete -c siteops -n ${q(cond)} -l no-${f.name} -d ${q(`not: ${f.description}`)}`);
    }
  }
  return `${lines.join("\n")}\n`;
}
