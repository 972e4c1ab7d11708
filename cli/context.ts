// What a running command gets: its output streams (terminal or not, colours), the output mode (--json,
// --jsonl, --quiet), the interrupt signal, and the API client, built on first use from the environment and
// the config file (so that `siteops completion` or a usage error never reads credentials).

import { isatty } from "node:tty";
import { describeRetry, type RequestLogger, type SiteOps } from "../src/index.js";
import { flagBool, flagString, type Parsed } from "./args.js";
import type { Target } from "./credentials.js";
import { UsageError } from "./exit-codes.js";
import { colorEnabled, styleFor, type Style } from "./output/style.js";

export interface Output {
  write(text: string): void;
  readonly isTTY: boolean;
  /** Terminal width (undefined when not a terminal). */
  readonly columns: number | undefined;
  readonly rows: number | undefined;
  readonly style: Style;
}

type Format = "human" | "json" | "jsonl";

export interface Context {
  readonly env: NodeJS.ProcessEnv;
  readonly stdout: Output;
  readonly stderr: Output;
  readonly stdin: NodeJS.ReadStream;
  readonly format: Format;
  /** --json=FIELDS: the fields to keep. */
  readonly fields: readonly string[] | undefined;
  readonly quiet: boolean;
  /** Aborted by SIGINT/SIGTERM. */
  readonly signal: AbortSignal;
  /** "siteops sites list" */
  readonly commandPath: string;
  /** The arguments after the command path, for lock names and reports. */
  readonly argv: readonly string[];
  readonly profile: string | undefined;
  readonly account: string | undefined;
  /** Values that must never be printed (the token, once known). */
  readonly secrets: string[];
  /** Resolves where to connect and with which credentials (exit 2/3 on a problem), without a request. */
  target(): Promise<Target>;
  /** The API client for the target (built once). */
  client(): Promise<SiteOps>;
  /** Closes the client's connections. */
  close(): Promise<void>;
}

export interface ContextInit {
  env: NodeJS.ProcessEnv;
  /** Getters: process.stdout and process.stderr are created on first use (a cost of every start), so a run
   * that prints nothing before its first request does not wait for them. */
  stdout: () => NodeJS.WriteStream;
  stderr: () => NodeJS.WriteStream;
  stdin: () => NodeJS.ReadStream;
  signal: AbortSignal;
  commandPath: string;
  argv: readonly string[];
  parsed: Parsed;
  /** Fields `--json=FIELDS` may name. */
  jsonFields: readonly string[] | undefined;
}

export function createContext(init: ContextInit): Context {
  const { env, parsed } = init;
  const noColor = flagBool(parsed, "no-color") === true;
  const output = (fd: number, get: () => NodeJS.WriteStream): Output => {
    const tty = isatty(fd);
    let stream: NodeJS.WriteStream | undefined;
    const open = () => (stream ??= get());
    return {
      write: (text) => void open().write(text),
      isTTY: tty,
      // 0 under a pty with no size set: unknown.
      get columns() {
        return tty ? open().columns || undefined : undefined;
      },
      get rows() {
        return tty ? open().rows || undefined : undefined;
      },
      style: styleFor(colorEnabled({ isTTY: tty }, env, noColor)),
    };
  };
  const json = flagString(parsed, "json");
  const jsonl = flagBool(parsed, "jsonl") === true;
  if (json !== undefined && jsonl) throw new UsageError("--json and --jsonl cannot be used together");
  const fields = json
    ? json
        .split(",")
        .map((f) => f.trim())
        .filter(Boolean)
    : undefined;
  if (fields && init.jsonFields) {
    const unknown = fields.filter((f) => !init.jsonFields!.includes(f));
    if (unknown.length) {
      throw new UsageError(`--json: unknown field${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")} (fields: ${init.jsonFields.join(", ")})`);
    }
  }
  const secrets: string[] = [];
  const profile = flagString(parsed, "profile");
  const account = flagString(parsed, "account");
  let target: Promise<Target> | undefined;
  let client: Promise<SiteOps> | undefined;
  const ctx: Context = {
    env,
    stdout: output(1, init.stdout),
    stderr: output(2, init.stderr),
    get stdin() {
      return init.stdin();
    },
    format: json !== undefined ? "json" : jsonl ? "jsonl" : "human",
    fields,
    quiet: flagBool(parsed, "quiet") === true,
    signal: init.signal,
    commandPath: init.commandPath,
    argv: init.argv,
    profile,
    account,
    secrets,
    target() {
      target ??= import("./credentials.js").then(({ resolveTarget }) => {
        const t = resolveTarget({ env, profile, account });
        if (t.token) secrets.push(t.token);
        return t;
      });
      return target;
    },
    client() {
      client ??= Promise.all([ctx.target(), import("../src/client.js")]).then(
        ([t, { SiteOps }]) =>
          new SiteOps({ baseUrl: t.baseUrl, apiToken: t.token, apiTokenSource: tokenSourceName(t), accountId: t.accountId, logger: retryLines(ctx) }),
      );
      return client;
    },
    async close() {
      if (client) await (await client.catch(() => undefined))?.close().catch(() => undefined);
    },
  };
  return ctx;
}

/** Where the token came from, as a refused token's error names it (cli/output/format.ts gives the fix). */
function tokenSourceName(t: Target): string {
  return t.tokenSource === "SITEOPS_API_TOKEN" ? "SITEOPS_API_TOKEN" : `the saved login of profile "${t.profile}" (${t.configFile})`;
}

/**
 * The client's logger for a command: each wait before a retry on stderr as it starts ("siteops: GET
 * /api/v1/sites: could not connect (ECONNREFUSED); retry 2 in 1.3 s"), so a dead service is not a silent
 * minute. Nothing with --quiet; with SITEOPS_DEBUG the client's debug logger prints these among the rest.
 */
export function retryLines(ctx: Pick<Context, "env" | "quiet" | "stderr">): RequestLogger | undefined {
  if (ctx.quiet || ctx.env.SITEOPS_DEBUG) return undefined;
  return (event) => {
    if (event.kind === "retry") ctx.stderr.write(`siteops: ${describeRetry(event)}\n`);
  };
}
