// The keys an earlier `siteops export` gave each object, read back from its file, so that exporting again keeps
// every object at its address (keys.ts; docs/design.md section 4, "Adopting a fleet"). HCL in either form, after
// `terraform fmt` and after the import blocks were deleted (the map form's `locals` and `for_each` still tell),
// and the CDK Terrain app. Only what names objects is read: the rest of the file may be anything, and nothing
// of it is ever printed.
import type { ExportedType } from "./arguments.js";
import type { PreviousPlace } from "./keys.js";

/** Per resource type, the place of each object id an earlier export held. */
export type PreviousKeys = Record<ExportedType, Map<string, PreviousPlace>>;

const TYPES: readonly ExportedType[] = ["siteops_site", "siteops_webhook_endpoint"];
const TYPE = "(siteops_site|siteops_webhook_endpoint)";
const IDENT = "[A-Za-z_][A-Za-z0-9_-]*";
const QUOTED = '"(?:[^"\\\\]|\\\\.)*"';

/** The keys of an earlier export's text (HCL, or a CDK Terrain app in TypeScript); empty maps when none. */
export function previousKeys(text: string): PreviousKeys {
  const found: PreviousKeys = { siteops_site: new Map(), siteops_webhook_endpoint: new Map() };
  const add = (type: ExportedType, id: string, place: PreviousPlace) => {
    if (!found[type].has(id)) found[type].set(id, place);
  };
  if (/^\s*export const (sites|webhookEndpoints)\b/m.test(text)) cdkKeys(text, add);
  else hclKeys(text, add);
  return found;
}

/** How many objects `keys` holds. */
export const countKeys = (keys: PreviousKeys): number => TYPES.reduce((n, t) => n + keys[t].size, 0);

type Add = (type: ExportedType, id: string, place: PreviousPlace) => void;

/** The rows of the app's `sites` and `webhookEndpoints` arrays: `{ key: "blog", id: "site_...", ... }`. */
function cdkKeys(text: string, add: Add): void {
  const sections: [ExportedType, RegExp][] = [
    ["siteops_site", /^\s*export const sites\b/m],
    ["siteops_webhook_endpoint", /^\s*export const webhookEndpoints\b/m],
  ];
  for (const [type, start] of sections) {
    const at = text.search(start);
    if (at < 0) continue;
    const end = text.indexOf("\n];", at);
    const section = text.slice(at, end < 0 ? undefined : end);
    for (const m of section.matchAll(new RegExp(`\\{\\s*key:\\s*(${QUOTED})\\s*,\\s*id:\\s*(${QUOTED})`, "g"))) {
      const key = jsonString(m[1]!);
      const id = jsonString(m[2]!);
      if (key !== undefined && id) add(type, id, { key });
    }
  }
}

/** A block of HCL as the line reader sees it: what precedes its `{`, its attributes' raw values, its blocks. */
interface Block {
  head: string;
  attrs: Map<string, string>;
  children: Block[];
}

function hclKeys(text: string, add: Add): void {
  const root = readBlocks(text);
  /** Entries of each local map: `locals { sites = { "blog" = { id = "site_..." } } }`. */
  const locals = new Map<string, { key: string; id: string }[]>();
  for (const block of root.children.filter((b) => b.head === "locals"))
    for (const named of block.children) {
      const local = nameOf(named.head);
      if (local === undefined) continue;
      for (const entry of named.children) {
        const key = nameOf(entry.head);
        const id = stringOf(entry.attrs.get("id"));
        if (key !== undefined && id) locals.set(local, [...(locals.get(local) ?? []), { key, id }]);
      }
    }
  /** The resource each local map feeds: `resource "T" "this" { for_each = local.sites }`, or its import block. */
  const bound = new Map<string, { type: ExportedType; resource: string }>();
  const bind = (forEach: string | undefined, type: ExportedType, resource: string) => {
    const local = /^local\.([A-Za-z_][A-Za-z0-9_-]*)$/.exec(forEach ?? "")?.[1];
    if (local && !bound.has(local)) bound.set(local, { type, resource });
  };
  for (const block of root.children) {
    const resource = new RegExp(`^resource\\s+"${TYPE}"\\s+"(${IDENT})"$`).exec(block.head);
    if (resource) bind(block.attrs.get("for_each"), resource[1] as ExportedType, resource[2]!);
    if (block.head !== "import") continue;
    const to = block.attrs.get("to") ?? "";
    const each = new RegExp(`^${TYPE}\\.(${IDENT})\\[each\\.key\\]$`).exec(to);
    if (each) bind(block.attrs.get("for_each"), each[1] as ExportedType, each[2]!);
    const id = stringOf(block.attrs.get("id"));
    if (!id) continue;
    const single = new RegExp(`^${TYPE}\\.(${IDENT})$`).exec(to);
    if (single) add(single[1] as ExportedType, id, { key: single[2]!, address: { resource: single[2]! } });
    const keyed = new RegExp(`^${TYPE}\\.(${IDENT})\\[(${QUOTED})\\]$`).exec(to);
    const key = keyed ? stringOf(keyed[3]) : undefined;
    if (keyed && key !== undefined) add(keyed[1] as ExportedType, id, { key, address: { resource: keyed[2]!, key } });
  }
  for (const [local, entries] of locals) {
    const to = bound.get(local);
    if (to) for (const { key, id } of entries) add(to.type, id, { key, address: { resource: to.resource, key } });
  }
}

/**
 * HCL read line by line, as `siteops export` and `terraform fmt` lay it out: a line ending in `{` opens a block
 * (its head is what precedes the brace), a line starting with `}` closes one, `name = value` is an attribute;
 * comments are dropped, and a value spanning lines (a list, a call) is skipped whole.
 */
function readBlocks(text: string): Block {
  const root: Block = { head: "", attrs: new Map(), children: [] };
  const stack = [root];
  let open = 0; // brackets and parentheses of a value still open
  for (const raw of text.split("\n")) {
    const line = withoutComment(raw).trim();
    if (!line) continue;
    if (open > 0) {
      open = Math.max(0, open + balance(line));
      continue;
    }
    const top = stack[stack.length - 1]!;
    if (line.startsWith("}")) {
      if (stack.length > 1) stack.pop();
      continue;
    }
    if (line.endsWith("{")) {
      const block: Block = { head: line.slice(0, -1).trim(), attrs: new Map(), children: [] };
      top.children.push(block);
      stack.push(block);
      continue;
    }
    const attr = new RegExp(`^(${QUOTED}|${IDENT})\\s*=\\s*(.*)$`).exec(line);
    if (!attr) continue;
    const value = attr[2]!;
    const inline = /^\{(.*)\}$/.exec(value);
    if (inline) top.children.push({ head: `${attr[1]} =`, attrs: inlineAttrs(inline[1]!), children: [] });
    else top.attrs.set(attr[1]!, value);
    open = Math.max(0, balance(value));
  }
  return root;
}

/** `id = "site_x", name = "Blog"` of a one-line object. */
function inlineAttrs(text: string): Map<string, string> {
  const attrs = new Map<string, string>();
  for (const m of text.matchAll(new RegExp(`(${IDENT})\\s*=\\s*(${QUOTED}|[^,]+)`, "g"))) attrs.set(m[1]!, m[2]!.trim());
  return attrs;
}

/** The line without its `#` or `//` comment (outside strings). */
function withoutComment(line: string): string {
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === "\\") i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === "#" || (c === "/" && line[i + 1] === "/")) return line.slice(0, i);
  }
  return line;
}

/** Brackets and parentheses opened less those closed, outside strings. */
function balance(text: string): number {
  let n = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === "\\") i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === "[" || c === "(") n++;
    else if (c === "]" || c === ")") n--;
  }
  return n;
}

/** A block's name from its head: `"blog" =` or `sites =`. */
function nameOf(head: string): string | undefined {
  const m = new RegExp(`^(${QUOTED}|${IDENT})\\s*=$`).exec(head);
  if (!m) return undefined;
  return m[1]!.startsWith('"') ? stringOf(m[1]) : m[1];
}

/** The text of an HCL string literal (`"..."`, with `$${` for `${`); undefined for anything else, a template
 * with an interpolation included. */
function stringOf(value: string | undefined): string | undefined {
  if (value === undefined || !new RegExp(`^${QUOTED}$`).test(value)) return undefined;
  const body = value.slice(1, -1);
  if (/(^|[^$])\$\{|(^|[^%])%\{/.test(body)) return undefined;
  const text = body.replace(/\\(U[0-9a-fA-F]{8}|u[0-9a-fA-F]{4}|.)/g, (_, e: string) => {
    if (e.length > 1) return String.fromCodePoint(Number.parseInt(e.slice(1), 16));
    return ({ n: "\n", r: "\r", t: "\t" } as Record<string, string>)[e] ?? e;
  });
  return text.replace(/([$%])\1\{/g, "$1{");
}

function jsonString(literal: string): string | undefined {
  try {
    const value: unknown = JSON.parse(literal);
    return typeof value === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}
