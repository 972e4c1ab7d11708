// Where to connect and with which token: the one reading of a base URL and an API token, shared by the client,
// the CLI, the GitHub Action and the Terraform provider, so that each trims the same way, refuses the same values
// and says so in the same words. Each caller names its sources as its users know them (`SITEOPS_API_TOKEN`,
// `'api-token'`, `api_token`) and decides its own precedence by their order.

import { SiteOpsError } from "./errors.js";

/** One place a setting may come from: its value (unset when undefined or blank) and its name for messages. */
export interface SettingSource {
  value: string | undefined | null;
  /** How the user knows it: `SITEOPS_BASE_URL`, `'base-url'`, `base_url`, `baseUrl`. */
  name: string;
}

/** A setting as found: the trimmed value and the source it came from. */
export interface FoundSetting {
  value: string;
  name: string;
}

/** A base URL or API token that cannot be used (`code` INVALID_SETTING); the message starts with the source's name. */
export class ConnectionSettingError extends SiteOpsError {
  override readonly code: string = "INVALID_SETTING";
  /** The source's name, as given by the caller. */
  readonly setting: string;
  constructor(setting: string, problem: string) {
    super(`${setting} ${problem}`);
    this.setting = setting;
  }
}

/** The first source that is set (blank counts as unset), trimmed; undefined when none is. */
export function firstSetting(sources: readonly SettingSource[]): FoundSetting | undefined {
  for (const { value, name } of sources) {
    const text = value?.trim();
    if (text) return { value: text, name };
  }
  return undefined;
}

/** An API token as found: refused when it has whitespace inside (a pasted line break, two tokens). */
export function checkApiToken(found: FoundSetting): string {
  if (/\s/.test(found.value)) throw new ConnectionSettingError(found.name, "must not contain whitespace");
  return found.value;
}

/**
 * A base URL as found: an absolute http(s) URL without credentials (the token is the credential), query or
 * fragment; returned without a trailing slash. A path is kept (a service behind a prefix).
 */
export function checkBaseUrl(found: FoundSetting): string {
  const { value, name } = found;
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    throw new ConnectionSettingError(name, `has no scheme: use https://${value.replace(/^\/+/, "")} (or http:// for a local emulator)`);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConnectionSettingError(name, `is not a valid URL (got ${JSON.stringify(value)})`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConnectionSettingError(name, `must be an http or https URL (got ${url.protocol.replace(/:$/, "")})`);
  }
  if (url.username || url.password) throw new ConnectionSettingError(name, "must not contain credentials: give the API token instead");
  if (url.search || url.hash) throw new ConnectionSettingError(name, "must not have a query or fragment");
  return url.href.replace(/\/+$/, "");
}
