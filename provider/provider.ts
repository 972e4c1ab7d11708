// The siteops provider: its configuration block, how it builds the API client, and its resources and
// data sources.
import type * as Core from "../src/index.js";
import type { SiteOps } from "../src/index.js";
import { apiTokenProblem, baseUrlOf, baseUrlProblem, firstSetting } from "../common/settings.js";
import { ApiErrors, type CallLimits } from "./api-errors.js";
import { loadClient } from "./load-core.js";
import { shardFunction } from "./functions/shard-function.js";
import { path, type Diagnostics } from "./framework/diagnostics.js";
import { log } from "./log.js";
import type { Model, Planned } from "./framework/model.js";
import type { ProviderDefinition } from "./framework/resource.js";
import { defineSchema } from "./framework/schema.js";
import { httpUrl, intBetween } from "./framework/validators.js";
import type { ProviderData } from "./provider-data.js";
import { SiteReader } from "./resources/site-reader.js";
import { isUnknown } from "./values/cty.js";
import { siteResource } from "./resources/site-resource.js";
import { webhookEndpointResource } from "./resources/webhook-endpoint-resource.js";
import { siteDataSource } from "./data-sources/site-data-source.js";
import { sitesDataSource } from "./data-sources/sites-data-source.js";
import { meDataSource } from "./data-sources/me-data-source.js";
import { accountDataSource } from "./data-sources/account-data-source.js";

export const providerSchema = defineSchema({
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
        "Retries of a failed request (connection errors, 408, 5xx; a 429 is waited out without counting here). Every API call ends at the latest the retry budget (60 s; env `SITEOPS_RETRY_BUDGET_MS`) plus `request_timeout` after it started, 429 waits included. Default 8; env `SITEOPS_MAX_RETRIES`.",
      validators: [intBetween(0, 20)],
    },
    request_timeout: {
      type: "number",
      optional: true,
      description: "Timeout of one request attempt, in seconds. Default 60; env `SITEOPS_TIMEOUT_MS` (milliseconds).",
      validators: [intBetween(1, 3600)],
    },
    max_concurrency: {
      type: "number",
      optional: true,
      description:
        "Most API requests in flight at once from one provider process (Terraform's `-parallelism` decides how many resources it works on; this bounds the requests they make). Default 32, the API client's connection pool; env `SITEOPS_MAX_CONCURRENCY`.",
      validators: [intBetween(1, 256)],
    },
  },
});

type ProviderConfig = Planned<Model<typeof providerSchema>>;

function validateProviderConfig(config: ProviderConfig, diags: Diagnostics): void {
  const set = (k: keyof ProviderConfig) => config[k] !== null;
  if (set("api_token") && set("email")) {
    diags.error("Conflicting credentials", "Set either api_token or email/password in the provider block, not both.", path("email"));
  }
  if (set("email") && !set("password")) diags.error("Missing password", "email needs password to log in.", path("password"));
  if (set("password") && !set("email")) diags.error("Missing email", "password needs email to log in.", path("email"));
}

/** True when no attribute is unknown; reports each unknown one (it depends on a resource not created yet). */
function isKnown(config: ProviderConfig, diags: Diagnostics): config is KnownConfig {
  for (const key of Object.keys(providerSchema.attributes) as (keyof ProviderConfig)[]) {
    if (isUnknown(config[key])) {
      diags.error(
        `Unknown SiteOps ${key}`,
        `The provider cannot be configured with an unknown ${key}: its value depends on a resource that is not created yet. Set it statically, use -target to create that resource first, or use the environment variable.`,
        path(key),
      );
    }
  }
  return !diags.hasErrors;
}

type KnownConfig = Model<typeof providerSchema>;

/** A string setting of the block; an empty string counts as unset, as for the environment variables. */
const setting = (config: KnownConfig, k: "base_url" | "api_token" | "email" | "password" | "otp") => config[k] || undefined;

/** The API client's options from the block and the environment (block first); undefined after a diagnostic. */
function clientOptions(config: KnownConfig, diags: Diagnostics) {
  const found = firstSetting([
    { value: config.base_url, name: "base_url" },
    { value: process.env.SITEOPS_BASE_URL, name: "SITEOPS_BASE_URL" },
  ]);
  if (!found) {
    diags.error("Missing SiteOps base URL", "Set base_url in the provider block or the SITEOPS_BASE_URL environment variable.", path("base_url"));
    return undefined;
  }
  const problem = baseUrlProblem(found);
  if (problem) {
    diags.error("Invalid SiteOps base URL", `${problem}.`, path("base_url"));
    return undefined;
  }
  const baseUrl = baseUrlOf(found.value);
  const maxConcurrency = config.max_concurrency ?? envInteger("SITEOPS_MAX_CONCURRENCY", diags);
  const options = {
    baseUrl,
    // Node's built-in HTTP client: each provider process lives for one command and a few hundred requests,
    // where undici's WebAssembly parser and cold code cost more CPU per request (BENCHMARKS.md, "Transports").
    transport: "node:http" as const,
    ...(config.max_retries !== null ? { maxRetries: config.max_retries } : {}),
    timeout: config.request_timeout !== null ? config.request_timeout * 1000 : envMs("SITEOPS_TIMEOUT_MS", diags),
    retryBudgetMs: envMs("SITEOPS_RETRY_BUDGET_MS", diags),
    // The client keeps at most this many keep-alive connections and queues the requests beyond them (a
    // request's timeout starts once it has a connection), which bounds the requests in flight.
    ...(maxConcurrency !== undefined ? { connections: maxConcurrency } : {}),
  };
  return diags.hasErrors ? undefined : options;
}

/**
 * The client's settings with the provider's bound on one call: whatever it waits for (429s, the client's rate
 * limiter, the connection circuit), a call ends at the latest the retry budget plus one attempt's timeout after it
 * started (docs/terraform.md, "A busy service"), as the core's callTimeoutMs. The core's own default is no bound (a
 * fleet run prefers waiting to failing); Terraform's user is at a terminal. A write cut off so may have happened,
 * and a create is found by its key at the next apply.
 */
function withCallLimit(c: typeof Core, common: { timeout: number | undefined; retryBudgetMs: number | undefined }): CallLimits & { callTimeoutMs: number } {
  const timeout = common.timeout ?? c.DEFAULT_TIMEOUT_MS;
  const retryBudgetMs = common.retryBudgetMs ?? c.DEFAULT_RETRY_BUDGET_MS;
  return { timeout, retryBudgetMs, callTimeoutMs: retryBudgetMs + timeout };
}

/**
 * Each wait before a retry as a warning in Terraform's log, when it starts (`TF_LOG_PROVIDER=WARN terraform
 * apply` shows them on the terminal; Terraform itself says "Still reading... [10s elapsed]"). SITEOPS_DEBUG
 * keeps the client's own debug logger, which prints them too.
 */
function retryWarnings(core: typeof Core): { logger?: Core.RequestLogger } {
  if (process.env.SITEOPS_DEBUG) return {};
  return {
    logger: (event) => {
      if (event.kind !== "retry") return;
      log.warn(`SiteOps API: ${core.describeRetry(event)}`, { attempt: event.attempt, delay_ms: event.delayMs });
    },
  };
}

/**
 * The provider's data: credentials checked now, the API client built at the first API call. Its code (a
 * bundle of its own, undici included but never evaluated on node:http) loads then too: the plan of an
 * apply that only creates, and any process that reads nothing, configures the provider without ever loading it.
 */
async function configure(config: ProviderConfig, diags: Diagnostics): Promise<ProviderData | undefined> {
  if (!isKnown(config, diags)) return undefined;
  const common = clientOptions(config, diags);
  if (!common) return undefined;
  let core: typeof Core | undefined;
  const load = async (): Promise<typeof Core> => (core ??= await loadClient());
  let limits: CallLimits | undefined;
  const options = (c: typeof Core) => {
    const bound = withCallLimit(c, common);
    limits = bound;
    return { ...common, ...bound, ...retryWarnings(c) };
  };
  const email = setting(config, "email");
  const password = setting(config, "password");
  if (email && password) {
    let pending: Promise<SiteOps> | undefined;
    const otp = setting(config, "otp");
    // One login per provider process, shared by every resource; a failed login is retried next call.
    const client = () =>
      (pending ??= load()
        .then((c) => c.SiteOps.login({ ...options(c), email, password, ...(otp ? { otp } : {}) }))
        .catch((err: unknown) => {
          pending = undefined;
          throw err;
        }));
    return {
      client,
      errors: new ApiErrors(
        () => core,
        "email/password in the provider configuration",
        () => limits,
      ),
      sites: new SiteReader(client),
    };
  }
  const token = firstSetting([
    { value: config.api_token, name: "api_token" },
    { value: process.env.SITEOPS_API_TOKEN, name: "SITEOPS_API_TOKEN" },
  ]);
  const fromConfig = token?.name === "api_token";
  const apiToken = token?.value;
  const tokenProblem = token && apiTokenProblem(token);
  if (tokenProblem) {
    // The problem names the setting, never the value.
    diags.error("Invalid SiteOps API token", `${tokenProblem}.`, path("api_token"));
    return undefined;
  }
  if (!apiToken) {
    diags.error(
      "Missing SiteOps credentials",
      "Set api_token (or email and password) in the provider block, or the SITEOPS_API_TOKEN environment variable.",
      path("api_token"),
    );
    return undefined;
  }
  let instance: Promise<SiteOps> | undefined;
  const client = () => (instance ??= load().then((c) => new c.SiteOps({ ...options(c), apiToken })));
  return {
    client,
    errors: new ApiErrors(
      () => core,
      fromConfig ? "api_token in the provider configuration" : "the SITEOPS_API_TOKEN environment variable",
      () => limits,
    ),
    sites: new SiteReader(client),
  };
}

/** Milliseconds from the environment, or undefined when unset; a bad value is an error naming the variable. */
function envMs(name: string, diags: Diagnostics): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return undefined;
  const n = Number(raw);
  if (Number.isFinite(n) && n >= 0) return n;
  diags.error(`Invalid ${name}`, `${name} must be a number of milliseconds, got: ${JSON.stringify(raw)}.`);
  return undefined;
}

/** A whole number from the environment, or undefined when unset; a bad value is an error naming the variable. */
function envInteger(name: string, diags: Diagnostics): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return undefined;
  const n = Number(raw);
  if (Number.isInteger(n) && n >= 1 && n <= 256) return n;
  diags.error(`Invalid ${name}`, `${name} must be a whole number between 1 and 256, got: ${JSON.stringify(raw)}.`, path("max_concurrency"));
  return undefined;
}

export function siteopsProvider(): ProviderDefinition<ProviderData, typeof providerSchema> {
  return {
    typeName: "siteops",
    schema: providerSchema,
    validateConfig: validateProviderConfig,
    configure,
    resources: [siteResource, webhookEndpointResource],
    dataSources: [siteDataSource, sitesDataSource, meDataSource, accountDataSource],
    functions: [shardFunction],
  };
}
