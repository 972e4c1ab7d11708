// A file a user writes (a vulnerability policy) read to a value: read as user-file.ts reads (no link, a regular
// file, capped), then JSON for `.json`, YAML otherwise (JSON is YAML too), with an error that names the line and
// never a piece of the text (the file could be anything a path reaches: an error must not print it). Strict as
// a reviewed file must be: a key twice in one mapping or object, an unknown YAML tag and any other warning of the
// YAML parser are refused. The YAML parser is imported only when a YAML file is read, so that the commands that
// read none (the CLI's other verbs, every other action step) do not pay for loading it.

import { readUserFile } from "./user-file.js";

/** A policy file larger than this is refused unread: 5,000 acceptances take about 1 MB. */
const MAX_POLICY_BYTES = 2 * 1024 * 1024;

/** The text is not valid JSON or YAML; the message is `not valid YAML at line 3: <why>`. */
export class FileSyntaxError extends Error {}

/**
 * The text of a policy file: not through a link at the path, a regular file, at most 2 MB; `ownOnly` (the CLI)
 * also refuses another user's file or one anyone can write. Throws UserFileError with the problem.
 */
export function readPolicyText(file: string, options: { ownOnly?: boolean } = {}): string {
  return readUserFile(file, { maxBytes: MAX_POLICY_BYTES, noLink: true, ownOnly: options.ownOnly === true });
}

/** The value of `text`, read from `file` (its name decides JSON or YAML). */
export async function parseDataText(file: string, text: string): Promise<unknown> {
  return /\.json$/i.test(file) ? parseJson(text) : parseYaml(text);
}

function parseJson(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    // V8 quotes the text around the fault (`Unexpected token 'S', "SECRET..." is not valid JSON`): kept out.
    const message = (err as Error).message;
    const line = /\(line (\d+) column \d+\)/.exec(message)?.[1];
    const why = message
      .replace(/,? ".*" is not valid JSON$/s, "")
      .replace(/ in JSON at position \d+.*$/s, "")
      .replace(/^Unexpected token '.*'$/s, "Unexpected character");
    throw new FileSyntaxError(`not valid JSON${line ? ` at line ${line}` : ""}: ${why}`);
  }
  const twice = duplicateKeyLine(text);
  if (twice !== undefined) throw new FileSyntaxError(`not valid JSON at line ${twice}: Map keys must be unique (a key twice in one object)`);
  return value;
}

/** The line of the first key that appears twice in one object of valid JSON text (JSON.parse keeps the last in
 * silence, where YAML refuses it), or undefined. */
function duplicateKeyLine(text: string): number | undefined {
  const objects: (Set<string> | null)[] = [];
  let line = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\n") line++;
    else if (c === "{") objects.push(new Set());
    else if (c === "[") objects.push(null);
    else if (c === "}" || c === "]") objects.pop();
    else if (c === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
      const keys = objects.at(-1);
      let next = end + 1;
      while (text[next] === " " || text[next] === "\t" || text[next] === "\r" || text[next] === "\n") next++;
      if (keys && text[next] === ":") {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (keys.has(key)) return line;
        keys.add(key);
      }
      i = end;
    }
  }
  return undefined;
}

async function parseYaml(text: string): Promise<unknown> {
  const { parseDocument } = await import("yaml");
  const unreadable = (err: unknown) => new FileSyntaxError(`not valid YAML: ${(err as Error).message.split("\n")[0]!.replace(/: .*$/, "")}`);
  let doc: ReturnType<typeof parseDocument>;
  try {
    // logLevel "error": nothing printed on stderr by the parser itself (its warnings quote the source).
    doc = parseDocument(text, { uniqueKeys: true, prettyErrors: true, logLevel: "error" });
  } catch (err) {
    throw unreadable(err); // nesting deep enough to exhaust the stack
  }
  const problem = doc.errors[0] ?? doc.warnings[0];
  if (problem) {
    const line = problem.linePos?.[0].line;
    // The first line of the parser's message, without its place (said here) and anything it quotes after a colon.
    const message = problem.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "");
    const why = problem.code === "TAG_RESOLVE_FAILED" ? "an unknown tag" : message.replace(/: .*$/, "");
    throw new FileSyntaxError(`not valid YAML${line ? ` at line ${line}` : ""}: ${why}`);
  }
  try {
    return doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    throw unreadable(err); // an alias bomb
  }
}
