// The data of `siteops snapshot create --upload`: the flag checked before any request (one site, a regular file
// or a piped stdin), and stdin as an upload source once its first bytes arrived.

import { statSync } from "node:fs";
import type { Context } from "../../context.js";
import { CliError, EXIT, UsageError } from "../../exit-codes.js";

export function checkUpload(ctx: Context, upload: string, notOneSite: boolean): void {
  if (notOneSite) throw new UsageError("--upload needs exactly one --site: the same data cannot be the snapshot of several sites");
  if (upload === "-") {
    if (ctx.stdin.isTTY)
      throw new UsageError(
        "--upload - reads the data from stdin, which is a terminal: pipe it in (mysqldump ... | siteops snapshot create --site X --upload -)",
      );
    return;
  }
  let isFile = false;
  try {
    isFile = statSync(upload).isFile();
  } catch {
    throw new UsageError(`--upload ${upload}: no such file`);
  }
  if (!isFile) throw new UsageError(`--upload ${upload}: not a regular file`);
}

/** Stdin as an upload source, after its first bytes arrived: an empty stdin (the dump before the pipe failed)
 * creates no snapshot. `onBytes` sees the running total. */
export async function stdinSource(stdin: NodeJS.ReadStream, onBytes: (total: number) => void): Promise<AsyncIterable<Uint8Array>> {
  const iterator = stdin[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const first = await iterator.next();
  if (first.done) throw new CliError("stdin is empty: nothing to upload (did the command before the pipe fail?); no snapshot was created", EXIT.FAILED);
  return (async function* () {
    let total = first.value.length;
    onBytes(total);
    yield first.value;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      total += next.value.length;
      onBytes(total);
      yield next.value;
    }
  })();
}
