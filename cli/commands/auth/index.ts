// `siteops auth login|status|logout`. Login with email and password creates an API token for this machine
// (POST /api/v1/auth, the native-client login: it never expires, which is what a cron job needs, and
// `auth logout` revokes it); --with-token saves a token you already have. Either is kept in the config file
// under the profile, for that base URL only, and never printed.

import { apiTokenProblem } from "../../../common/settings.js";
import { hostname } from "node:os";
import { flagBool, flagString } from "../../args.js";
import { AuthenticationError, type Me, OtpRequiredError, SiteOps } from "../../../src/index.js";
import { describeError } from "../../../src/fleet.js";
import { configPath, readConfig, writeConfig, type ProfileConfig } from "../../config.js";
import { retryLines, type Context } from "../../context.js";
import { loadProfile, normalizeBaseUrl, NotLoggedInError } from "../../credentials.js";
import { CliError, EXIT, UsageError } from "../../exit-codes.js";
import { errorLine } from "../../output/format.js";
import { printObject } from "../../output/printer.js";
import { clean } from "../../../common/sanitize.js";
import { ask, readStdinLine } from "../../prompt.js";
import { defineCommand } from "../../runner.js";
import type { LeafSpec } from "../../spec.js";

/** `sot_…` with the rest hidden: enough to tell tokens apart in `auth status`, nothing to use. */
function masked(token: string): string {
  const prefix = /^[a-z]+_/.exec(token)?.[0] ?? "";
  return `${prefix}${"*".repeat(8)}`;
}

function saveProfile(ctx: Context, profile: string, settings: ProfileConfig): string {
  const file = configPath(ctx.env);
  const config = readConfig(file);
  config.profiles[profile] = settings;
  writeConfig(file, config);
  return file;
}

async function whoAmI(baseUrl: string, token: string, accountId: string | undefined, signal: AbortSignal, tokenSource?: string): Promise<Me> {
  const client = new SiteOps({ baseUrl, apiToken: token, apiTokenSource: tokenSource, accountId });
  try {
    return await client.me({ signal });
  } finally {
    await client.close();
  }
}

const login: LeafSpec = {
  name: "login",
  summary: "log in to a Site Operations service and save the credentials for this profile",
  description:
    "With email and password (asked on the terminal, or --email and --password-stdin), creates an API token for\n" +
    "this machine and saves it; asks for the 2FA code when the service requires one (or pass --otp). With\n" +
    "--with-token, reads an existing token (sot_...) from stdin. Saved in $XDG_CONFIG_HOME/siteops/config.json\n" +
    '(mode 0600) under --profile (default "default"), and only ever sent to that base URL.',
  flags: [
    {
      name: "base-url",
      type: "string",
      value: "URL",
      description: "the service, e.g. https://siteops.example.com (default: SITEOPS_BASE_URL, or the profile's)",
    },
    { name: "email", type: "string", value: "EMAIL", description: "your email (asked when not given)" },
    { name: "password-stdin", type: "boolean", description: "read the password from stdin" },
    { name: "otp", type: "string", value: "CODE", description: "the current 2FA code (asked when needed and not given)" },
    { name: "with-token", type: "boolean", description: "read an API token from stdin instead of logging in" },
  ],
  examples: [
    "siteops auth login --base-url https://siteops.example.com",
    "siteops auth login --base-url https://siteops.example.com --with-token < token.txt",
    "printf '%s' \"$PASSWORD\" | siteops auth login --email ops@example.com --password-stdin --otp 123456",
  ],
  async run(ctx, parsed) {
    const withToken = flagBool(parsed, "with-token") === true;
    const passwordStdin = flagBool(parsed, "password-stdin") === true;
    if (withToken && (passwordStdin || flagString(parsed, "email") || flagString(parsed, "otp"))) {
      throw new UsageError("--with-token reads a token: it does not go with --email, --password-stdin or --otp");
    }
    const { name: profile, settings } = loadProfile(ctx.env, ctx.profile);
    const rawBase = flagString(parsed, "base-url") ?? (ctx.env.SITEOPS_BASE_URL?.trim() || settings.base_url);
    const source = flagString(parsed, "base-url") !== undefined ? "--base-url" : ctx.env.SITEOPS_BASE_URL?.trim() ? "SITEOPS_BASE_URL" : `profile "${profile}"`;
    let baseUrl: string;
    if (rawBase) baseUrl = normalizeBaseUrl(rawBase, source);
    else if (ctx.stdin.isTTY && !withToken) baseUrl = normalizeBaseUrl(await ask(process, "Service URL (https://...): "), "the service URL");
    else throw new UsageError("which service? give --base-url URL (or set SITEOPS_BASE_URL)");
    const accountId = ctx.account ?? settings.account_id;

    let token: string;
    let tokenSource: ProfileConfig["token_source"];
    let me: Me;
    if (withToken) {
      token = await readStdinLine(ctx.stdin, "the token");
      const tokenProblem = apiTokenProblem({ value: token, name: "the token on stdin" });
      if (tokenProblem) throw new UsageError(tokenProblem);
      ctx.secrets.push(token);
      try {
        me = await whoAmI(baseUrl, token, accountId, ctx.signal, "stdin");
      } catch (err) {
        // "The API token from stdin was refused (...) [HTTP 401, ...]."
        if (err instanceof AuthenticationError) throw new CliError(errorLine(err, ctx.secrets), EXIT.AUTH);
        throw err;
      }
      tokenSource = "token";
    } else {
      const email = flagString(parsed, "email") ?? (ctx.stdin.isTTY ? await ask(process, "Email: ") : undefined);
      if (!email) throw new UsageError("--email is required when not on a terminal");
      const password = passwordStdin
        ? await readStdinLine(ctx.stdin, "the password")
        : ctx.stdin.isTTY
          ? await ask(process, "Password: ", { hidden: true })
          : undefined;
      if (!password) throw new UsageError("the password: pass --password-stdin (and pipe it in) when not on a terminal");
      ctx.secrets.push(password);
      const given = flagString(parsed, "otp");
      // No X-Account-Id on the login itself (SITEOPS_ACCOUNT_ID would add one): it applies to what follows.
      const anon = new SiteOps({ baseUrl, accountId: "", logger: retryLines(ctx) });
      try {
        const create = (otp: string | undefined) =>
          anon.auth
            .createApiToken({ email, password, otp_attempt: otp, name: `siteops CLI on ${hostname()}` }, { signal: ctx.signal })
            .catch((err: unknown) => {
              // Not "check siteops auth status" (there is nothing saved yet): what was typed is what is wrong.
              if (err instanceof AuthenticationError)
                throw new CliError(`${clean(describeError(err))} Check the email and password${otp ? " and the two-factor code" : ""}.`, EXIT.AUTH);
              throw err;
            });
        let created;
        try {
          created = await create(given);
        } catch (err) {
          if (!(err instanceof OtpRequiredError)) throw err;
          if (!ctx.stdin.isTTY || passwordStdin)
            throw new CliError("this user has two-factor authentication: pass --otp CODE (or log in on a terminal to be asked)", EXIT.AUTH);
          created = await create(await ask(process, "Two-factor code: ", { hidden: true }));
        }
        token = created.token;
        ctx.secrets.push(token);
        me = await whoAmI(baseUrl, token, accountId, ctx.signal);
      } finally {
        await anon.close();
      }
      tokenSource = "login";
    }
    const file = saveProfile(ctx, profile, {
      ...settings,
      base_url: baseUrl,
      api_token: token,
      token_source: tokenSource,
      user: me.email,
      ...(accountId ? { account_id: accountId } : {}),
    });
    if (!ctx.quiet) ctx.stderr.write(`Logged in to ${baseUrl} as ${clean(me.email)} (profile "${profile}", saved in ${file}).\n`);
    if (ctx.env.SITEOPS_API_TOKEN && !ctx.quiet) ctx.stderr.write("Note: SITEOPS_API_TOKEN is set in this environment and wins over the saved token.\n");
    return EXIT.OK;
  },
};

const status: LeafSpec = {
  name: "status",
  summary: "show where you are logged in, as whom, and whether the token works",
  flags: [],
  jsonFields: ["profile", "base_url", "token_source", "token", "user", "account_id", "config_file"],
  async run(ctx) {
    const target = await ctx.target();
    let me: Me;
    try {
      me = await whoAmI(target.baseUrl, target.token, target.accountId, ctx.signal);
    } catch (err) {
      if (err instanceof AuthenticationError) {
        const where = target.tokenSource === "SITEOPS_API_TOKEN" ? "SITEOPS_API_TOKEN" : `the token of profile "${target.profile}"`;
        throw new NotLoggedInError(
          `${where} is refused by ${target.baseUrl} (revoked or wrong): run siteops auth login${target.tokenSource === "SITEOPS_API_TOKEN" ? " or fix the variable" : ""}`,
        );
      }
      throw err;
    }
    const value = {
      profile: target.profile,
      base_url: target.baseUrl,
      token_source: target.tokenSource,
      token: masked(target.token),
      user: me,
      account_id: target.accountId ?? me.current_account_id,
      config_file: target.configFile,
    };
    printObject(ctx, value, [
      ["service", target.baseUrl],
      ["user", `${me.email} (${me.name}, ${me.role})`],
      ["account", value.account_id],
      ["profile", target.profile],
      ["token", `${value.token} (from ${target.tokenSource === "config" ? target.configFile : "SITEOPS_API_TOKEN"})`],
    ]);
    return EXIT.OK;
  },
};

const logout: LeafSpec = {
  name: "logout",
  summary: "forget this profile's credentials (and revoke the token that auth login created)",
  flags: [],
  async run(ctx) {
    const { name: profile, settings, configFile } = loadProfile(ctx.env, ctx.profile);
    if (!settings.api_token) {
      if (!ctx.quiet) ctx.stderr.write(`Not logged in (profile "${profile}").\n`);
      return EXIT.OK;
    }
    ctx.secrets.push(settings.api_token);
    let revoked = false;
    // Revoke only the token `auth login` created; a token given with --with-token may be shared (CI secrets).
    if (settings.token_source === "login" && settings.base_url) {
      const client = new SiteOps({ baseUrl: settings.base_url, apiToken: settings.api_token });
      try {
        await client.auth.deleteApiToken({ signal: ctx.signal });
        revoked = true;
      } catch (err) {
        if (!(err instanceof AuthenticationError)) {
          ctx.stderr.write(`warning: could not revoke the token on the service (${errorLine(err, ctx.secrets)}); forgetting it here anyway\n`);
        }
      } finally {
        await client.close();
      }
    }
    const config = readConfig(configFile);
    const { api_token: _token, token_source: _source, user: _user, ...rest } = config.profiles[profile] ?? {};
    config.profiles[profile] = rest;
    writeConfig(configFile, config);
    if (!ctx.quiet)
      ctx.stderr.write(`Logged out of ${settings.base_url ?? "the service"} (profile "${profile}")${revoked ? "; the token was revoked" : ""}.\n`);
    if (ctx.env.SITEOPS_API_TOKEN && !ctx.quiet) ctx.stderr.write("Note: SITEOPS_API_TOKEN is still set in this environment.\n");
    return EXIT.OK;
  },
};

export default defineCommand({ name: "auth", summary: "log in, show the login, log out", subcommands: [login, status, logout] });
