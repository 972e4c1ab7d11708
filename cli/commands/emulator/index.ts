// `siteops emulator`: run the Site Operations emulator until interrupted (docs/design.md section 3).
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import type { Command } from "../../command.js";
import type { EmulatorOptions } from "../../../emulator/index.js";
import { packageRoot } from "../../package-root.js";

/**
 * What the emulator imports beyond the package's own dependency: optional peer dependencies of `siteops`, so a
 * user of the client alone installs none of them. Their ranges are read from package.json, never repeated here.
 */
const EMULATOR_PEERS = [
  "fastify",
  "@fastify/type-provider-typebox",
  "jose",
  "otplib",
  "typebox",
  // the web console (emulator/console/)
  "@fastify/cookie",
  "@fastify/csrf-protection",
  "@fastify/formbody",
];

const HELP = `usage: siteops emulator [options]

  --port N              TCP port (default 4747; 0 picks a free one)
  --host ADDR           listen address (default 127.0.0.1)
  --db FILE|:memory:    SQLite database (default :memory:)
  --data-dir DIR        where uploaded snapshot data is stored (default: a temp dir)
  --seed FILE           seed JSON applied when the database is empty
  --demo                seed a demo account and print its credentials
  --step-seconds N      emulator-clock seconds per snapshot/pipeline step (default 2; 0 = at once)
  --rate-limit N/SECONDS|off   e.g. 100/60 (default off)
  --access-ttl SECONDS  JWT access token lifetime (default 900)
  --refresh-ttl SECONDS refresh token lifetime (default 604800)
  --log                 log requests to stderr
  --allow-private-webhooks   let webhook endpoints target private and loopback addresses
                        (a receiver on this machine); link-local, metadata and the emulator itself never
  --login-throttle USER,ADDRESS/SECONDS|off   failed logins per user and per client address before
                        a 429 (default 10,50/900)
  --public-url URL      base of absolute links (pagination Link); default: the listening URL
  --profile default|minimal   default, or minimal: the other choice wherever the spec says "not
                        shown" (pages of 5 without headers, short ids, an HTML 401, ...)

Prints one JSON line to stdout when ready ({"url":...}); logs go to stderr.`;

/** The package's declared peer ranges (from the siteops package this command runs in; none when not found). */
function peerRanges(): Record<string, string> {
  let root: string;
  try {
    root = packageRoot();
  } catch {
    return {};
  }
  const file = path.join(root, "package.json");
  return (JSON.parse(readFileSync(file, "utf8")) as { peerDependencies?: Record<string, string> }).peerDependencies ?? {};
}

/**
 * The one line for a missing peer: the npm command that installs every missing one at its declared range, or
 * null when all resolve from here (the same place dist/emulator resolves them from).
 */
export function missingPeersMessage(resolve: (specifier: string) => string = (s) => import.meta.resolve(s)): string | null {
  const missing = EMULATOR_PEERS.filter((name) => {
    try {
      resolve(name);
      return false;
    } catch {
      return true;
    }
  });
  if (!missing.length) return null;
  const ranges = peerRanges();
  const args = missing.map((name) => (ranges[name] ? `${name}@${ranges[name]}` : name)).map((arg) => (/^[\w@^~./-]+$/.test(arg) ? arg : `"${arg}"`));
  return `siteops emulator: the emulator needs its optional peer dependencies (missing: ${missing.join(", ")}); install them with: npm i -D ${args.join(" ")}`;
}

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

function profile(raw: string | undefined): "default" | "minimal" | undefined {
  if (raw === undefined || raw === "default" || raw === "minimal") return raw;
  throw new Error(`--profile must be default or minimal, got "${raw}"`);
}

/** The flags as startEmulator's options; throws one line naming the flag for a bad one. */
function parseFlags(args: string[]): { help: true } | { help: false; options: EmulatorOptions } {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      port: { type: "string" },
      host: { type: "string" },
      db: { type: "string" },
      "data-dir": { type: "string" },
      seed: { type: "string" },
      demo: { type: "boolean" },
      "step-seconds": { type: "string" },
      "rate-limit": { type: "string" },
      "access-ttl": { type: "string" },
      "refresh-ttl": { type: "string" },
      log: { type: "boolean" },
      "allow-private-webhooks": { type: "boolean" },
      "login-throttle": { type: "string" },
      "public-url": { type: "string" },
      profile: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) return { help: true };
  return {
    help: false,
    options: {
      port: number("port", values.port, 0) ?? 4747,
      host: values.host,
      db: values.db,
      dataDir: values["data-dir"],
      seed: values.seed,
      demo: values.demo,
      stepSeconds: number("step-seconds", values["step-seconds"], 0),
      rateLimit: rateLimit(values["rate-limit"]),
      accessTtl: number("access-ttl", values["access-ttl"], 1),
      refreshTtl: number("refresh-ttl", values["refresh-ttl"], 1),
      logger: values.log,
      allowPrivateWebhookTargets: values["allow-private-webhooks"],
      loginThrottle: loginThrottle(values["login-throttle"]),
      publicUrl: publicUrl(values["public-url"]),
      profile: profile(values.profile),
    },
  };
}

const command: Command = {
  summary: "run the Site Operations emulator",
  async run(args) {
    let flags: ReturnType<typeof parseFlags>;
    try {
      flags = parseFlags(args);
    } catch (err) {
      // Bad flags are a usage error (exit 2, as for every siteops command), found before anything starts.
      console.error(`error: siteops emulator: ${(err as Error).message}`);
      return 2;
    }
    if (flags.help) {
      console.log(HELP);
      return 0;
    }
    const missing = missingPeersMessage();
    if (missing) {
      console.error(missing);
      return 2;
    }
    const { startEmulator } = await import("../../../emulator/index.js");
    const emulator = await startEmulator(flags.options);
    const line: Record<string, unknown> = { url: emulator.url, port: emulator.port, db: flags.options.db ?? ":memory:" };
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
