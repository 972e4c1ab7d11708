// Text from the service (site names, descriptions, error messages) is data, not terminal or log input: anyone
// who can rename a site must not be able to start a line of their own (forged log lines, `::warning::` workflow
// commands in a GitHub Actions log, where `core.info` escapes nothing), move the cursor or change colours.
// The CLI (tables, progress, errors) and the GitHub Action (log, annotations, job summary, outputs) print
// every such string through `clean`/`inertLine`, and JSON through `safeJson`: one implementation for both.

// C0 controls, DEL, C1 controls (0x9b is an 8-bit CSI), line/paragraph separators and bidi overrides/isolates
// (which reorder what is shown, "Trojan Source").
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function escape(char: string): string {
  const named = NAMED[char];
  if (named) return named;
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
}

/** The text with every control character shown as an escape (`\n`, `\x1b`, `\u202e`): one line, inert. A
 * `##[` (the runner's older command syntax, which it finds anywhere in a line) gets its bracket escaped. */
export function clean(value: unknown): string {
  const text = value === null || value === undefined ? "" : String(value);
  return text.replace(UNSAFE, escape).replaceAll("##[", "##\\x5b");
}

/** One log line made of service data: `clean`, and no workflow command at its start. */
export function inertLine(value: unknown): string {
  return guardLine(clean(value));
}

/** A line that would start a GitHub Actions workflow command (`::name ...::`, after any leading whitespace,
 * which the runner trims) gets its first colon escaped. */
export function guardLine(line: string): string {
  return line.replace(/^(\s*):(?=:)/, "$1\\x3a");
}

// JSON.stringify escapes C0 controls itself; these it leaves raw.
const UNSAFE_IN_JSON = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** JSON text of `value` in which no character can act on a terminal or a runner's log (still valid JSON, same
 * value: `##[` can only occur inside a string, where `\u005b` is the same bracket). */
export function safeJson(value: unknown, indent?: number): string {
  return (JSON.stringify(value, null, indent) ?? "null")
    .replace(UNSAFE_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
    .replaceAll("##[", "##\\u005b");
}
