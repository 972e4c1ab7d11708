// The code blocks of the guides, as test/docs runs them: every fenced block in a language a user pastes (TypeScript,
// shell, HCL, workflow YAML) with its file, line, section and the marker on the line before it, grouped by section
// (the blocks of one section run in one shell, in order, as a reader follows them).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** The guides whose blocks are checked, from the repository root. */
function docFiles(root: string): string[] {
  const docs = (dir: string) =>
    readdirSync(path.join(root, dir))
      .filter((f) => f.endsWith(".md"))
      .sort()
      .map((f) => `${dir}/${f}`);
  return ["README.md", "CONTRIBUTING.md", ...docs("docs"), ...docs("docs/guides"), "action/README.md", "emulator/README.md"];
}

type Lang = "ts" | "sh" | "hcl" | "yaml";
const LANGS: Record<string, Lang> = { ts: "ts", typescript: "ts", sh: "sh", bash: "sh", shell: "sh", hcl: "hcl", yaml: "yaml", yml: "yaml" };

export interface Block {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: Lang;
  code: string;
  /** The heading the block is under. */
  section: string;
  /** `<!-- not-run: why -->` on the line before the block. */
  notRun?: string;
  /** `<!-- expect: text -->` on the line before the block: its section's output must contain the text. */
  expect?: string;
  /** The file a TypeScript, HCL or YAML block is saved as: its first line, `// main.mts` or `# dir/main.tf`. */
  saveAs?: string;
}

/** Where a block is, as a failure names it. */
export const where = (b: Pick<Block, "file" | "line">): string => `${b.file}:${b.line}`;

function extractBlocks(file: string, text: string): Block[] {
  const lines = text.split("\n");
  const blocks: Block[] = [];
  let section = "";
  for (let i = 0; i < lines.length; i++) {
    const heading = /^#{1,6}\s+(.*)$/.exec(lines[i]!);
    if (heading) section = heading[1]!;
    const open = /^(\s*)(`{3,})([\w-]*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, tag] = open;
    let end = i + 1;
    while (end < lines.length && lines[end]!.trim() !== fence) end++;
    const code = lines
      .slice(i + 1, end)
      .map((l) => (l.startsWith(indent!) ? l.slice(indent!.length) : l))
      .join("\n");
    const lang = LANGS[tag!.toLowerCase()];
    if (lang) {
      let previous = i - 1;
      while (previous >= 0 && lines[previous]!.trim() === "") previous--;
      const marker = /^\s*<!--\s*(not-run|expect):\s*([\s\S]*?)\s*-->\s*$/.exec(lines[previous] ?? "");
      const first = code.split("\n")[0] ?? "";
      const saveAs = lang === "sh" ? undefined : /^(?:\/\/|#)\s*([\w./-]+\.(?:m?ts|tf|ya?ml))\b/.exec(first)?.[1];
      blocks.push({
        file,
        line: i + 1,
        lang,
        code,
        section,
        ...(marker?.[1] === "not-run" ? { notRun: marker[2] } : {}),
        ...(marker?.[1] === "expect" ? { expect: marker[2] } : {}),
        ...(saveAs ? { saveAs } : {}),
      });
    }
    i = end;
  }
  return blocks;
}

export interface Group {
  file: string;
  section: string;
  blocks: Block[];
}

/** The runnable blocks (no not-run marker) by file and section, in document order. */
export function groups(blocks: readonly Block[]): Group[] {
  const out: Group[] = [];
  for (const b of blocks) {
    if (b.notRun !== undefined) continue;
    const last = out.at(-1);
    if (last && last.file === b.file && last.section === b.section) last.blocks.push(b);
    else out.push({ file: b.file, section: b.section, blocks: [b] });
  }
  return out;
}

/** Why a block cannot be run as it stands (it then needs a not-run marker), or null. */
export function unrunnable(b: Block, group: Group): string | null {
  if (b.notRun !== undefined) return b.notRun.trim() ? null : "its not-run marker gives no reason";
  if (b.lang === "yaml") return null;
  if (b.lang === "sh") return null;
  if (!b.saveAs) return `a ${b.lang} block needs its file name on its first line (e.g. "// main.mts", "# dir/main.tf") or a <!-- not-run: why --> marker`;
  if (!group.blocks.some((o) => o.lang === "sh" && o.line > b.line)) return `nothing runs ${b.saveAs}: no shell block follows it in its section`;
  return null;
}

/**
 * One bash script for a group: its shell blocks as written, its other blocks saved under their names (a here
 * document each), each preceded by a line on stderr that names the block, so a failure can be placed.
 */
export function script(group: Group, substitute: (code: string) => string): string {
  const parts = ["set -eo pipefail"];
  for (const b of group.blocks) {
    if (b.lang === "yaml") continue;
    parts.push(`echo '@@block ${where(b)}' >&2`);
    if (b.lang === "sh") parts.push(substitute(b.code));
    else {
      const dir = path.posix.dirname(b.saveAs!);
      if (dir !== ".") parts.push(`mkdir -p '${dir}'`);
      parts.push(`cat > '${b.saveAs}' <<'SITEOPS_DOC_BLOCK'\n${substitute(b.code)}\nSITEOPS_DOC_BLOCK`);
    }
  }
  return `${parts.join("\n")}\n`;
}

/** The block a failed script was running: the last block marker on its stderr. */
export function failedBlock(stderr: string): string | undefined {
  return [...stderr.matchAll(/^@@block (\S+)$/gm)].at(-1)?.[1];
}

export function readBlocks(root: string, files = docFiles(root)): Block[] {
  return files.flatMap((f) => extractBlocks(f, readFileSync(path.join(root, f), "utf8")));
}
