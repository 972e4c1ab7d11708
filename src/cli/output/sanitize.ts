// Text from the service (site names, descriptions, error messages) is data, not terminal input: anyone who can
// rename a site must not be able to start a line of their own (forged log lines, `::warning::` workflow
// commands when siteops runs in GitHub Actions), move the cursor or change colours. Every such string the CLI
// prints in human or tab-separated form goes through `clean`; JSON output goes through `safeJson`.

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

/** The text with every control character shown as an escape (`\n`, `\x1b`, `\u202e`): one line, inert. */
export function clean(value: unknown): string {
  const text = value === null || value === undefined ? "" : String(value);
  return text.replace(UNSAFE, escape);
}

/** A line that would start a GitHub Actions workflow command (`::name ...::`) gets its first colon escaped. */
export function guardLine(line: string): string {
  return line.startsWith("::") ? `\\x3a${line.slice(1)}` : line;
}

// JSON.stringify escapes C0 controls itself; these it leaves raw.
const UNSAFE_IN_JSON = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** JSON text of `value` in which no character can act on a terminal (still valid JSON, same value). */
export function safeJson(value: unknown, indent?: number): string {
  return (JSON.stringify(value, null, indent) ?? "null").replace(UNSAFE_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
