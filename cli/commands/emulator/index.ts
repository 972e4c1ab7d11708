// `siteops emulator`: run the Site Operations emulator until interrupted (docs/design.md section 3).
// Its flags are declared once (emulatorDeclaration): --help, the parser and shell completion derive from them.
import { type FlagSpec, flagBool, flagString, type Parsed, parseArgv } from "../../args.js";
import type { Command } from "../../command.js";
import type { EmulatorOptions } from "../../../emulator/index.js";
import { leafHelp, wantsHelp } from "../../help.js";
import { missingPeersMessage } from "../../../common/emulator-peers.js";
import { allFlags, type LeafDeclaration } from "../../spec.js";

/** The port the command listens on unless --port says otherwise (the emulator started in-process picks a free one). */
const DEFAULT_PORT = 4747;

type ProfileName = NonNullable<EmulatorOptions["profile"]>;
/** Every profile of the emulator (emulator/profile.ts): one added there does not compile here until listed. */
const PROFILES = Object.keys({ default: true, minimal: true } satisfies Record<ProfileName, true>) as ProfileName[];

const EMULATOR_FLAGS = [
  { name: "port", type: "string", value: "N", description: `TCP port (default ${DEFAULT_PORT}; 0 picks a free one)` },
  { name: "host", type: "string", value: "ADDR", description: "listen address (default 127.0.0.1)" },
  { name: "db", type: "string", value: "FILE|:memory:", description: "SQLite database (default :memory:)" },
  { name: "data-dir", type: "string", value: "DIR", description: "where uploaded snapshot data is stored (default: a temp dir)" },
  { name: "seed", type: "string", value: "FILE", description: "seed JSON applied when the database is empty" },
  { name: "demo", type: "boolean", description: "seed a demo account and print its credentials" },
  { name: "step-seconds", type: "string", value: "N", description: "emulator-clock seconds per snapshot/pipeline step (default 2; 0 = at once)" },
  {
    name: "rate-limit",
    type: "string",
    value: "N/SECONDS|off",
    description: "at most N requests per SECONDS per credential (or address), e.g. 100/60 (default off)",
  },
  { name: "access-ttl", type: "string", value: "SECONDS", description: "JWT access token lifetime (default 900)" },
  { name: "refresh-ttl", type: "string", value: "SECONDS", description: "refresh token lifetime (default 604800)" },
  { name: "log", type: "boolean", description: "log requests to stderr" },
  {
    name: "allow-private-webhooks",
    type: "boolean",
    description: "let webhook endpoints target private and loopback addresses (a receiver on this machine); link-local, metadata and the emulator itself never",
  },
  {
    name: "login-throttle",
    type: "string",
    value: "USER,ADDRESS/SECONDS|off",
    description: "failed logins per user and per client address before a 429 (default 10,50/900)",
  },
  { name: "public-url", type: "string", value: "URL", description: "base of absolute links (pagination Link); default: the listening URL" },
  {
    name: "profile",
    type: "string",
    value: "PROFILE",
    choices: PROFILES,
    description:
      'what the emulator answers where the spec says "not shown": minimal makes the other choice each time, e.g. pages of 5 without headers, short ids, an HTML 401 (default "default")',
  },
] as const satisfies readonly FlagSpec[];

type EmulatorFlag = (typeof EMULATOR_FLAGS)[number]["name"];

/** `siteops emulator` as --help, shell completion and docs/cli-reference.md know it. */
const emulatorDeclaration: LeafDeclaration = {
  name: "emulator",
  summary: "run the Site Operations emulator",
  description: 'Runs until Ctrl-C. Prints one JSON line to stdout when ready ({"url":...}); logs go to stderr.',
  flags: EMULATOR_FLAGS,
  examples: [
    "siteops emulator --demo",
    "siteops emulator --port 0 --db ./emulator.db --data-dir ./emulator-data --seed seed.json",
    "siteops emulator --demo --profile minimal --log",
  ],
  standalone: true,
};

function number(name: string, raw: string | undefined, min: number): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer >= ${min}, got "${raw}"`);
  return n;
}

function rateLimit(raw: string | undefined): { limit: number; windowSeconds: number } | null {
  if (raw === undefined || raw === "off") return null;
  const m = /^(\d+)\/(\d+)$/.exec(raw);
  if (!m || Number(m[1]) < 1 || Number(m[2]) < 1) throw new Error(`--rate-limit must be N/SECONDS (e.g. 100/60) or off, got "${raw}"`);
  return { limit: Number(m[1]), windowSeconds: Number(m[2]) };
}

function loginThrottle(raw: string | undefined): { perUser: number; perAddress: number; windowSeconds: number } | null | undefined {
  if (raw === undefined) return undefined;
  if (raw === "off") return null;
  const m = /^(\d+),(\d+)\/(\d+)$/.exec(raw);
  if (!m || Number(m[1]) < 1 || Number(m[2]) < 1 || Number(m[3]) < 1) {
    throw new Error(`--login-throttle must be USER,ADDRESS/SECONDS (e.g. 10,50/900) or off, got "${raw}"`);
  }
  return { perUser: Number(m[1]), perAddress: Number(m[2]), windowSeconds: Number(m[3]) };
}

function publicUrl(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (!/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(raw) || !URL.canParse(raw)) throw new Error(`--public-url must be an absolute http(s) URL, got "${raw}"`);
  return raw;
}

/** The flags as startEmulator's options; throws one line naming the flag for a bad value. */
function emulatorOptions(parsed: Parsed): EmulatorOptions {
  const text = (name: EmulatorFlag) => flagString(parsed, name);
  const on = (name: EmulatorFlag) => flagBool(parsed, name);
  const profile = text("profile");
  return {
    port: number("port", text("port"), 0) ?? DEFAULT_PORT,
    host: text("host"),
    db: text("db"),
    dataDir: text("data-dir"),
    seed: text("seed"),
    demo: on("demo"),
    stepSeconds: number("step-seconds", text("step-seconds"), 0),
    rateLimit: rateLimit(text("rate-limit")),
    accessTtl: number("access-ttl", text("access-ttl"), 1),
    refreshTtl: number("refresh-ttl", text("refresh-ttl"), 1),
    logger: on("log"),
    allowPrivateWebhookTargets: on("allow-private-webhooks"),
    loginThrottle: loginThrottle(text("login-throttle")),
    publicUrl: publicUrl(text("public-url")),
    // The parser let through only the declared choices.
    profile: PROFILES.find((p) => p === profile),
  };
}

const command: Command = {
  summary: emulatorDeclaration.summary,
  spec: emulatorDeclaration,
  async run(args) {
    if (wantsHelp(args)) {
      console.log(leafHelp("siteops emulator", emulatorDeclaration));
      return 0;
    }
    let options: EmulatorOptions;
    try {
      options = emulatorOptions(parseArgv(args, allFlags(emulatorDeclaration), [], "siteops emulator"));
    } catch (err) {
      // Bad flags are a usage error (exit 2, as for every siteops command), found before anything starts.
      console.error(`error: ${(err as Error).message}`);
      return 2;
    }
    const missing = missingPeersMessage("siteops emulator");
    if (missing) {
      console.error(missing);
      return 2;
    }
    const { startEmulator } = await import("../../../emulator/index.js");
    const emulator = await startEmulator(options);
    const line: Record<string, unknown> = { url: emulator.url, port: emulator.port, db: options.db ?? ":memory:" };
    if (emulator.context.profile.name !== "default") line.profile = emulator.context.profile.name;
    if (emulator.demo) line.demo = emulator.demo;
    process.stdout.write(`${JSON.stringify(line)}\n`);
    process.stderr.write(`siteops emulator listening on ${emulator.url} (Ctrl-C to stop)\n`);
    const signIn = emulator.demo ? ` (sign in as ${emulator.demo.email} / ${emulator.demo.password})` : "";
    process.stderr.write(`web console: ${emulator.url}/${signIn}\n`);

    await new Promise<void>((resolve) => {
      const stop = (): void => {
        process.off("SIGINT", stop);
        process.off("SIGTERM", stop);
        resolve();
      };
      process.on("SIGINT", stop);
      process.on("SIGTERM", stop);
    });
    await emulator.close();
    return 0;
  },
};

export default command;
