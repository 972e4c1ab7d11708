// The config file: `$XDG_CONFIG_HOME/siteops/config.json` (default ~/.config/siteops/config.json), one entry
// per profile with the service's base URL and the credentials for it. It holds a token, so it is created
// 0600 in a 0700 directory, written whole to a temporary file and renamed (never half written), and refused
// when others can read it, as ssh refuses a private key. The token is never printed. Another local user must
// not get the token by planting a symlink: the temporary file has a random name and is created exclusively
// (O_EXCL, which never follows a link: common/private-file.ts), and a config directory others can write to is tightened to 0700
// (refused when it belongs to someone else).

import { shellQuote } from "../common/shell.js";
import { chmodSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { writeFileExclusive } from "../common/private-file.js";
import { CliError, EXIT } from "./exit-codes.js";

export interface ProfileConfig {
  /** The service's URL; the token below is only ever sent there. */
  base_url?: string;
  api_token?: string;
  /** "login": created by `auth login` (revoked by `auth logout`); "token": given with --with-token. */
  token_source?: "login" | "token";
  /** Email of the user, for `auth status` without a request. */
  user?: string;
  /** X-Account-Id for this profile. */
  account_id?: string;
}

export interface ConfigFile {
  profiles: Record<string, ProfileConfig>;
}

export const DEFAULT_PROFILE = "default";
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** A config file that cannot be used as it is: exit 2 with the fix. */
class ConfigError extends CliError {
  constructor(message: string) {
    super(message, EXIT.USAGE);
    this.name = "ConfigError";
  }
}

export function configPath(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_CONFIG_HOME;
  // The XDG spec ignores a relative XDG_CONFIG_HOME.
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(env.HOME || homedir(), ".config");
  return path.join(base, "siteops", "config.json");
}

export function checkProfileName(name: string, source: string): string {
  if (!PROFILE_NAME.test(name)) {
    throw new ConfigError(`${source}: ${JSON.stringify(name)} is not a profile name (letters, digits, "_", "-", "."; up to 64)`);
  }
  return name;
}

/** Reads the config file; a missing file is an empty config. */
export function readConfig(file: string): ConfigFile {
  let text: string;
  try {
    if (process.platform !== "win32") {
      const info = statSync(file);
      if ((info.mode & 0o077) !== 0) {
        const mode = (info.mode & 0o777).toString(8).padStart(4, "0");
        throw new ConfigError(`config file ${file} is accessible by other users (mode ${mode}) and holds credentials: run chmod 600 ${shellQuote(file)}`);
      }
    }
    text = readFileSync(file, "utf8");
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { profiles: {} };
    throw new ConfigError(`cannot read config file ${file}: ${(err as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`config file ${file} is not valid JSON (${(err as Error).message}): fix it, or remove it and run siteops auth login`);
  }
  return validate(data, file);
}

function validate(data: unknown, file: string): ConfigFile {
  const fail = (where: string, what: string) => new ConfigError(`config file ${file}: ${where} ${what}`);
  if (!isObject(data)) throw fail("the top level", "must be a JSON object");
  const profiles = data.profiles ?? {};
  if (!isObject(profiles)) throw fail('"profiles"', "must be an object of profile name -> settings");
  for (const [name, profile] of Object.entries(profiles)) {
    if (!PROFILE_NAME.test(name)) throw fail(`profile ${JSON.stringify(name)}`, "has an invalid name");
    if (!isObject(profile)) throw fail(`profiles.${name}`, "must be an object");
    for (const key of ["base_url", "api_token", "user", "account_id"] as const) {
      if (profile[key] !== undefined && typeof profile[key] !== "string") throw fail(`profiles.${name}.${key}`, "must be a string");
    }
    if (profile.token_source !== undefined && profile.token_source !== "login" && profile.token_source !== "token") {
      throw fail(`profiles.${name}.token_source`, 'must be "login" or "token"');
    }
  }
  return { ...data, profiles: profiles as Record<string, ProfileConfig> };
}

/** Writes the whole config: a 0600 temporary file in the same 0700 directory, flushed, then renamed. */
export function writeConfig(file: string, config: ConfigFile): void {
  const dir = path.dirname(file);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    privateDirectory(dir);
    writeFileExclusive(file, `${JSON.stringify(config, null, 2)}\n`);
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError(`cannot write config file ${file}: ${(err as Error).message}`);
  }
}

/**
 * The config directory must be this user's own and closed to others: one that another user owns (or a link
 * to one) is refused, one others could write to or read is tightened to 0700 (another user could otherwise
 * plant or swap files in it).
 */
function privateDirectory(dir: string): void {
  if (process.platform === "win32") return;
  const info = statSync(dir);
  if (!info.isDirectory()) throw new ConfigError(`config directory ${dir} is not a directory`);
  const uid = process.getuid?.();
  if (uid !== undefined && info.uid !== uid) {
    throw new ConfigError(`config directory ${dir} belongs to another user (uid ${info.uid}): it would hold your token; remove it or set XDG_CONFIG_HOME`);
  }
  if ((info.mode & 0o077) !== 0) chmodSync(dir, 0o700);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
