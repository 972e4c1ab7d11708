// Where a command connects and with which token. SITEOPS_BASE_URL and SITEOPS_API_TOKEN win over the config
// file; the profile (--profile, else SITEOPS_PROFILE, else "default") supplies what the environment does not.
// A token saved for one base URL is never sent to another: with SITEOPS_BASE_URL pointing elsewhere, the
// profile's token is not used.

import { apiTokenProblem, baseUrlOf, baseUrlProblem, firstSetting } from "../common/settings.js";
import { checkProfileName, configPath, DEFAULT_PROFILE, readConfig, type ProfileConfig } from "./config.js";
import { CliError, EXIT, UsageError } from "./exit-codes.js";

export interface Target {
  baseUrl: string;
  token: string;
  /** Where the token came from, for `auth status` and error messages. */
  tokenSource: "SITEOPS_API_TOKEN" | "config";
  profile: string;
  accountId: string | undefined;
  configFile: string;
}

export interface TargetInput {
  env: NodeJS.ProcessEnv;
  profile?: string;
  account?: string;
}

/** Not logged in, or no token for this base URL: exit 3. */
export class NotLoggedInError extends CliError {
  constructor(message: string) {
    super(message, EXIT.AUTH);
    this.name = "NotLoggedInError";
  }
}

/** The profile's name and settings, and the config file it is in. Reads the file. */
export function loadProfile(env: NodeJS.ProcessEnv, profile?: string): { name: string; settings: ProfileConfig; configFile: string } {
  const name =
    profile !== undefined
      ? checkProfileName(profile, "--profile")
      : env.SITEOPS_PROFILE
        ? checkProfileName(env.SITEOPS_PROFILE, "SITEOPS_PROFILE")
        : DEFAULT_PROFILE;
  const configFile = configPath(env);
  const settings = readConfig(configFile).profiles[name] ?? {};
  return { name, settings, configFile };
}

export function resolveTarget(input: TargetInput): Target {
  const { env } = input;
  const envBase = firstSetting([{ value: env.SITEOPS_BASE_URL, name: "SITEOPS_BASE_URL" }])?.value;
  const envToken = firstSetting([{ value: env.SITEOPS_API_TOKEN, name: "SITEOPS_API_TOKEN" }])?.value;
  const configFile = configPath(env);
  // Both from the environment (CI, containers): the config file is not read at all.
  const profile =
    envBase && envToken && input.profile === undefined
      ? { name: env.SITEOPS_PROFILE || DEFAULT_PROFILE, settings: {}, configFile }
      : loadProfile(env, input.profile);
  const baseUrl = envBase
    ? normalizeBaseUrl(envBase, "SITEOPS_BASE_URL")
    : profile.settings.base_url
      ? normalizeBaseUrl(profile.settings.base_url, `profile "${profile.name}" in ${profile.configFile}`)
      : undefined;
  if (!baseUrl) {
    throw new NotLoggedInError(
      `not logged in (profile "${profile.name}"): run siteops auth login --base-url URL, or set SITEOPS_BASE_URL and SITEOPS_API_TOKEN`,
    );
  }
  const saved = profile.settings.base_url && sameUrl(profile.settings.base_url, baseUrl) ? profile.settings.api_token : undefined;
  const token = envToken ?? saved;
  if (!token) {
    throw new NotLoggedInError(
      `not logged in to ${baseUrl} (profile "${profile.name}"): run siteops auth login${envBase ? ` --base-url ${baseUrl}` : ""}, or set SITEOPS_API_TOKEN`,
    );
  }
  const tokenProblem = apiTokenProblem({ value: token, name: envToken ? "SITEOPS_API_TOKEN" : `the token of profile "${profile.name}"` });
  if (tokenProblem) throw new UsageError(tokenProblem);
  return {
    baseUrl,
    token,
    tokenSource: envToken ? "SITEOPS_API_TOKEN" : "config",
    profile: profile.name,
    accountId: input.account ?? (env.SITEOPS_ACCOUNT_ID?.trim() || profile.settings.account_id),
    configFile: profile.configFile,
  };
}

/** The base URL from `value` (trimmed), or a usage error naming `source` and what is wrong (common/settings.ts: the
 * same words as the client, the action and the provider). */
export function normalizeBaseUrl(value: string, source: string): string {
  const found = { value: value.trim(), name: source };
  const problem = baseUrlProblem(found);
  if (problem) throw new UsageError(problem);
  return baseUrlOf(found.value);
}

function sameUrl(a: string, b: string): boolean {
  try {
    return new URL(a).href.replace(/\/+$/, "") === new URL(b).href.replace(/\/+$/, "");
  } catch {
    return false;
  }
}
