// Questions on the terminal (email, hidden password, 2FA code, confirmations) and reading a secret from
// stdin (--with-token, --password-stdin). Prompts are written to stderr so stdout stays data.

import { CliError, EXIT, UsageError } from "./exit-codes.js";

export interface PromptIO {
  stdin: NodeJS.ReadStream;
  stderr: NodeJS.WriteStream;
}

/** Asks one line on the terminal; `hidden` echoes nothing (passwords, codes). Ctrl-C exits 130. */
export function ask(io: PromptIO, question: string, options: { hidden?: boolean } = {}): Promise<string> {
  const { stdin, stderr } = io;
  if (!stdin.isTTY) throw new UsageError(`cannot ask "${question.trim()}": stdin is not a terminal`);
  return new Promise((resolve, reject) => {
    let answer = "";
    const wasRaw = stdin.isRaw;
    // Raw before the question shows: an answer typed at once is not echoed by the terminal (a password).
    stdin.setRawMode(true);
    stderr.write(question);
    stdin.setEncoding("utf8");
    stdin.resume();
    const finish = (error?: Error) => {
      stdin.off("data", onData);
      stdin.setRawMode(wasRaw);
      stdin.pause();
      stderr.write("\n");
      if (error) reject(error);
      else resolve(answer.trim());
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === "\r" || char === "\n") return finish();
        if (char === "\u0003") return finish(new CliError("interrupted", EXIT.INTERRUPTED));
        if (char === "\u0004") return finish(answer ? undefined : new CliError("no answer (end of input)", EXIT.USAGE));
        if (char === "\u007f" || char === "\b") {
          if (answer.length > 0) {
            answer = answer.slice(0, -1);
            if (!options.hidden) stderr.write("\b \b");
          }
          continue;
        }
        if (char < " ") continue; // other control keys (arrows send ESC sequences) are ignored
        answer += char;
        if (!options.hidden) stderr.write(char);
      }
    };
    stdin.on("data", onData);
  });
}

/** Reads all of stdin (a pipe or file) and returns its first line, trimmed. */
export async function readStdinLine(stdin: NodeJS.ReadStream, what: string): Promise<string> {
  if (stdin.isTTY) throw new UsageError(`${what} is read from stdin, which is a terminal: pipe it in (e.g. siteops auth login --with-token < token.txt)`);
  let text = "";
  stdin.setEncoding("utf8");
  for await (const chunk of stdin) {
    text += chunk as string;
    if (text.length > 64 * 1024) throw new UsageError(`${what} on stdin is longer than 64 KiB`);
  }
  const line =
    text
      .split(/\r?\n/)
      .find((l) => l.trim() !== "")
      ?.trim() ?? "";
  if (!line) throw new UsageError(`${what} on stdin is empty`);
  return line;
}

/** On a terminal: asks to type `expected` to confirm. Not on a terminal: --yes is required. */
export async function confirm(io: PromptIO, yes: boolean, what: string, expected: string): Promise<void> {
  if (yes) return;
  if (!io.stdin.isTTY || !io.stderr.isTTY) throw new UsageError(`refusing to ${what} without --yes (not on a terminal)`);
  const answer = await ask(io, `To ${what}, type ${JSON.stringify(expected)}: `);
  if (answer !== expected) throw new CliError(`not confirmed: nothing was deleted`, EXIT.USAGE);
}
