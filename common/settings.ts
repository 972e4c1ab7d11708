// Where to connect and with which token: the one reading of a base URL and an API token, shared by the client,
// the CLI, the GitHub Action and the Terraform provider, so that each trims the same way, refuses the same values
// and says so in the same words. Each caller names its sources as its users know them (`SITEOPS_API_TOKEN`,
// `'api-token'`, `api_token`), decides its precedence by their order, and turns a problem into its own error
// (the client's ConnectionSettingError, the CLI's usage error, the action's input problem, a diagnostic).

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

/** The first source that is set (blank counts as unset), trimmed; undefined when none is. */
export function firstSetting(sources: readonly SettingSource[]): FoundSetting | undefined {
  for (const { value, name } of sources) {
    const text = value?.trim();
    if (text) return { value: text, name };
  }
  return undefined;
}

/** What is wrong with an API token as found (whitespace inside: a pasted line break, two tokens), in one sentence
 * that starts with its source's name; undefined when nothing is. */
export function apiTokenProblem(found: FoundSetting): string | undefined {
  return /\s/.test(found.value) ? `${found.name} must not contain whitespace` : undefined;
}

/**
 * What is wrong with a base URL as found, in one sentence that starts with its source's name; undefined when it is
 * an absolute http(s) URL without credentials (the token is the credential), query or fragment. A path is fine
 * (a service behind a prefix).
 */
export function baseUrlProblem(found: FoundSetting): string | undefined {
  const { value, name } = found;
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return `${name} has no scheme: use https://${value.replace(/^\/+/, "")} (or http:// for a local emulator)`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${name} is not a valid URL (got ${JSON.stringify(value)})`;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return `${name} must be an http or https URL (got ${url.protocol.replace(/:$/, "")})`;
  if (url.username || url.password) return `${name} must not contain credentials: give the API token instead`;
  if (url.search || url.hash) return `${name} must not have a query or fragment`;
  return undefined;
}

/** A base URL without a problem, as the toolkit uses it: WHATWG's serialization without a trailing slash. */
export function baseUrlOf(value: string): string {
  return new URL(value).href.replace(/\/+$/, "");
}
