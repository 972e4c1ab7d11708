// A file a user writes (a vulnerability policy) read to a value: JSON for `.json`, YAML otherwise (JSON is YAML
// too), with an error that names the line. The YAML parser is imported only when a YAML file is read, so that
// the commands that read none (the CLI's other verbs, every other action step) do not pay for loading it.

/** The text is not valid JSON or YAML; the message is `not valid YAML at line 3: <why>`. */
export class FileSyntaxError extends Error {}

/** The value of `text`, read from `file` (its name decides JSON or YAML). */
export async function parseDataText(file: string, text: string): Promise<unknown> {
  const json = /\.json$/i.test(file);
  try {
    if (json) return JSON.parse(text);
    const { parse } = await import("yaml");
    return parse(text, { uniqueKeys: true, prettyErrors: true });
  } catch (err) {
    // JSON's errors name the offset; YAML's the line (linePos), also repeated at the end of its first line.
    const line = (err as { linePos?: [{ line: number }] }).linePos?.[0].line;
    const message = (err as Error).message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "");
    throw new FileSyntaxError(`not valid ${json ? "JSON" : "YAML"}${line ? ` at line ${line}` : ""}: ${message}`);
  }
}
