// The emulator as the tests run it: in this process on a port-0 listener (most tests), or as its own process
// (`siteops emulator` from the sources) when a test needs it apart: its start-up line, its exit, or memory
// measured in this process that must be the client's alone.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { startEmulator, type EmulatorOptions, type ProfileName, type RunningEmulator, type SeedFile } from "../../emulator/index.js";
import { CLI_FROM_SOURCE, ROOT } from "./paths.js";
import { firstLine, start, stop, type Started } from "./processes.js";
import { removeDir, tempDir } from "./temp.js";

/**
 * The emulator's compatibility profiles: the journeys that matter run against both (issue 36). `default` is
 * what the toolkit was built against; `minimal` behaves like a stranger that follows the spec and decides
 * every unshown point otherwise (pages of 5 without headers, 6-character ids, normalised URLs, ...).
 */
export const PROFILES: readonly ProfileName[] = ["default", "minimal"];

/** An emulator in this process on 127.0.0.1:0 with this seed, its clock still (stepSeconds 0) unless `options` say. */
export function startSeededEmulator(seed: SeedFile | undefined, options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startEmulator({ port: 0, stepSeconds: 0, seed, ...options });
}

/**
 * One account named `account` with one owner (`owner@<account>.test`, a password of no interest), their API
 * `token`, and `sites` sites named "Site 1", "Site 2", ... at https://site-N.example.com.
 */
export function ownerSeed(account: string, token: string, sites = 0): SeedFile {
  const email = `owner@${account.toLowerCase()}.test`;
  return {
    accounts: [
      {
        name: account,
        users: [{ email, password: "owner-password-1", name: "Owner", role: "owner" }],
        api_tokens: [{ token, user_email: email }],
        sites: Array.from({ length: sites }, (_, i) => ({ name: `Site ${i + 1}`, url: `https://site-${i + 1}.example.com` })),
      },
    ],
  };
}

export interface EmulatorProcess extends Started {
  /** The start-up line (url, and demo credentials with --demo). */
  line: { url: string; [key: string]: any };
  url: string;
  /** The process's temp folder (the seed file, the data dir with `dataDir`). */
  dir: string;
  /** Stdout after the start-up line. */
  stdoutAfter(): string;
  /** SIGTERM, waits for the exit, removes the temp folder; resolves with the exit code. */
  close(): Promise<number | null>;
}

export interface SpawnEmulatorOptions {
  /** Written to a file in the temp folder and passed as --seed. */
  seed?: SeedFile;
  /** Pass --data-dir <temp folder>/data. */
  dataDir?: boolean;
  /** More flags (--port 0 is always given first). */
  args?: readonly string[];
  env?: NodeJS.ProcessEnv;
}

/** `siteops emulator --port 0 ...` from the sources, in its own process; resolves once it printed its start-up line. */
export async function spawnEmulator(options: SpawnEmulatorOptions = {}): Promise<EmulatorProcess> {
  const dir = tempDir("emulator-process");
  const args = ["emulator", "--port", "0"];
  if (options.seed) {
    writeFileSync(path.join(dir, "seed.json"), JSON.stringify(options.seed));
    args.push("--seed", path.join(dir, "seed.json"));
  }
  if (options.dataDir) args.push("--data-dir", path.join(dir, "data"));
  args.push(...(options.args ?? []));
  const started = start(process.execPath, [...CLI_FROM_SOURCE, ...args], { cwd: ROOT, env: options.env });
  let first: string;
  try {
    first = await firstLine(started);
  } catch (err) {
    removeDir(dir);
    throw new Error(`the emulator did not start: ${(err as Error).message}\n${started.stderr()}`);
  }
  const line = JSON.parse(first) as EmulatorProcess["line"];
  return {
    ...started,
    line,
    url: line.url,
    dir,
    stdoutAfter: () => started.stdout().slice(first.length + 1),
    async close() {
      const code = await stop(started.child);
      removeDir(dir);
      return code;
    },
  };
}
