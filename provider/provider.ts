// The siteops provider: its configuration block, how it builds the API client, and its resources and
// data sources.
import { createRequire } from "node:module";
import type { SiteOps } from "../src/index.js";
import { path, type Diagnostics } from "./framework/diagnostics.js";
import type { ProviderDefinition } from "./framework/resource.js";
import type { Schema } from "./framework/schema.js";
import { httpUrl, intBetween } from "./framework/validators.js";
import type { ProviderData } from "./provider-data.js";
import { SiteReader } from "./resources/site-reader.js";
import { isUnknown, type ObjectValue } from "./values/cty.js";
import { siteResource } from "./resources/site-resource.js";
import { webhookEndpointResource } from "./resources/webhook-endpoint-resource.js";
import { siteDataSource } from "./data-sources/site-data-source.js";
import { sitesDataSource } from "./data-sources/sites-data-source.js";
import { meDataSource } from "./data-sources/me-data-source.js";
import { accountDataSource } from "./data-sources/account-data-source.js";

export const providerSchema: Schema = {
  description:
    "The SiteOps provider manages WordPress sites and webhook endpoints of the Site Operations service. " +
    "Authenticate with an API token (`api_token` or `SITEOPS_API_TOKEN`) or with `email`/`password` (JWT).",
  attributes: {
    base_url: {
      type: "string",
      optional: true,
      description: "URL of the Site Operations service, e.g. `https://siteops.example.com`. May also be set with the `SITEOPS_BASE_URL` environment variable.",
      validators: [httpUrl()],
    },
    api_token: {
      type: "string",
      optional: true,
      sensitive: true,
      description: "API token (`sot_...`). May also be set with the `SITEOPS_API_TOKEN` environment variable. Conflicts with `email`.",
    },
    email: {
      type: "string",
      optional: true,
      description: "Email of a user to log in as (JWT); requires `password`. Conflicts with `api_token`.",
    },
    password: {
      type: "string",
      optional: true,
      sensitive: true,
      description: "Password of the `email` user.",
    },
    otp: {
      type: "string",
      optional: true,
      sensitive: true,
      description: "Current one-time code, for a user with two-factor authentication.",
    },
    max_retries: {
      type: "number",
      optional: true,
      description:
        "Retries of a failed request (connection errors, 408, 429, 5xx), within the core's 60 s retry budget (env `SITEOPS_RETRY_BUDGET_MS`). Default 8; env `SITEOPS_MAX_RETRIES`.",
      validators: [intBetween(0, 20)],
    },
    request_timeout: {
      type: "number",
      optional: true,
      description: "Timeout of one request attempt, in seconds. Default 60; env `SITEOPS_TIMEOUT_MS` (milliseconds).",
      validators: [intBetween(1, 3600)],
    },
  },
};

declare const __SITEOPS_CLIENT_FILE__: string | undefined;

/**
 * The API client, loaded on configure, not at start-up: processes that only serve the schema or validation
 * never need it. The bundle keeps it in a CommonJS file of its own, loaded with require (an import() of
 * CommonJS would first scan the whole file for export names).
 */
async function loadClient(): Promise<typeof import("../src/index.js")> {
  if (typeof __SITEOPS_CLIENT_FILE__ !== "undefined") return createRequire(import.meta.url)(__SITEOPS_CLIENT_FILE__) as typeof import("../src/index.js");
  return import("../src/index.js");
}

function validateProviderConfig(config: ObjectValue, diags: Diagnostics): void {
  const set = (k: string) => config[k] !== null && config[k] !== undefined;
  if (set("api_token") && set("email")) {
    diags.error("Conflicting credentials", "Set either api_token or email/password in the provider block, not both.", path("email"));
  }
  if (set("email") && !set("password")) diags.error("Missing password", "email needs password to log in.", path("password"));
  if (set("password") && !set("email")) diags.error("Missing email", "password needs email to log in.", path("email"));
}

async function configure(config: ObjectValue, diags: Diagnostics): Promise<ProviderData | undefined> {
  for (const key of Object.keys(providerSchema.attributes)) {
    if (isUnknown(config[key])) {
      diags.error(
        `Unknown SiteOps ${key}`,
        `The provider cannot be configured with an unknown ${key}: its value depends on a resource that is not created yet. Set it statically, use -target to create that resource first, or use the environment variable.`,
        path(key),
      );
    }
  }
  if (diags.hasErrors) return undefined;
  const str = (k: string) => (typeof config[k] === "string" && config[k] !== "" ? (config[k] as string) : undefined);
  const num = (k: string) => (typeof config[k] === "number" ? (config[k] as number) : undefined);
  const env = process.env;

  const baseUrl = str("base_url") ?? (env.SITEOPS_BASE_URL || undefined);
  if (!baseUrl) {
    diags.error("Missing SiteOps base URL", "Set base_url in the provider block or the SITEOPS_BASE_URL environment variable.", path("base_url"));
    return undefined;
  }
  try {
    const u = new URL(baseUrl);
    if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error("scheme");
  } catch {
    const from = str("base_url") ? "base_url" : "SITEOPS_BASE_URL";
    diags.error("Invalid SiteOps base URL", `${from} must be an absolute http or https URL, got: ${JSON.stringify(baseUrl)}.`, path("base_url"));
    return undefined;
  }
  const maxRetries = num("max_retries");
  const timeoutSeconds = num("request_timeout");
  const common = { baseUrl, ...(maxRetries !== undefined ? { maxRetries } : {}), ...(timeoutSeconds !== undefined ? { timeout: timeoutSeconds * 1000 } : {}) };

  const { SiteOps } = await loadClient();
  const email = str("email");
  const password = str("password");
  if (email && password) {
    let pending: Promise<SiteOps> | undefined;
    const otp = str("otp");
    // One login per provider process, shared by every resource; a failed login is retried next call.
    const client = () =>
      (pending ??= SiteOps.login({ ...common, email, password, ...(otp ? { otp } : {}) }).catch((err: unknown) => {
        pending = undefined;
        throw err;
      }));
    return { credentialSource: "email/password in the provider configuration", client, sites: new SiteReader(client) };
  }
  const fromConfig = str("api_token");
  const apiToken = fromConfig ?? (env.SITEOPS_API_TOKEN || undefined);
  if (!apiToken) {
    diags.error(
      "Missing SiteOps credentials",
      "Set api_token (or email and password) in the provider block, or the SITEOPS_API_TOKEN environment variable.",
      path("api_token"),
    );
    return undefined;
  }
  const instance = new SiteOps({ ...common, apiToken });
  const client = async () => instance;
  return {
    credentialSource: fromConfig ? "api_token in the provider configuration" : "the SITEOPS_API_TOKEN environment variable",
    client,
    sites: new SiteReader(client),
  };
}

export function siteopsProvider(): ProviderDefinition<ProviderData> {
  return {
    typeName: "siteops",
    schema: providerSchema,
    validateConfig: validateProviderConfig,
    configure,
    resources: [siteResource, webhookEndpointResource],
    dataSources: [siteDataSource, sitesDataSource, meDataSource, accountDataSource],
  };
}
