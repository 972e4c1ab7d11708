// The provider's boundary for API core errors: each failure becomes one diagnostic, on the attribute the API
// complained about when it names one. Tokens never reach a message (the core already redacts them).
//
// The API client is bundled apart from the provider and loaded at the provider's first API call (see
// scripts/build-provider.mjs), so the error classes are taken from that loaded module: `instanceof` then
// tests against the very classes that threw, with no guessing from an error's shape.
import type * as Core from "../src/index.js";
import { path, type AttributePath, type Diagnostics } from "./framework/diagnostics.js";
import type { Block } from "./framework/schema.js";

/** The core's error classes, from the module that the provider's client was built from. */
export type CoreErrors = Pick<
  typeof Core,
  | "SiteOpsError"
  | "APIError"
  | "NotFoundError"
  | "OtpRequiredError"
  | "APIUserAbortError"
  | "APIConnectionError"
  | "WaitTimeoutError"
  | "CallTimeoutError"
  | "OperationFailedError"
  | "UnexpectedResponseError"
>;

export interface FailureContext {
  /** What was being done, for the summary: "create the site". */
  action: string;
  /** The resource's or data source's schema: a 422 field error naming one of its attributes points at it. */
  schema?: Block;
  /** API field -> attribute path, for fields whose attribute has another name. */
  fieldPaths?: Record<string, AttributePath>;
  /** Said after an answer of an unexpected shape to a request that changes something (it may have happened). */
  ifUnexpected?: string;
  /** Said when Terraform stopped the provider before the request was answered (what the next apply does). */
  ifCancelled?: string;
  /** Said after a 422 on the field (API name) it is keyed by: what to do about it. */
  fieldHints?: Record<string, string>;
}

/** `text` as a sentence: one closing period, not a second after the API's own ("before continuing.."). */
function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** `text` then ` (request id ...)` and one closing period: the API's own period moves after the id. */
function sentenceBefore(text: string, suffix: string): string {
  return suffix ? `${text.replace(/\.$/, "")}${suffix}.` : sentence(text);
}

/** What makes up the provider's bound on one call, for the message of a call that ran out of it. */
export interface CallLimits {
  retryBudgetMs: number;
  timeout: number;
}

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;

export class ApiErrors {
  constructor(
    /** The loaded core, or a function returning it once loaded (undefined before: no error can be the core's). */
    private readonly core: CoreErrors | (() => CoreErrors | undefined),
    /** e.g. "the SITEOPS_API_TOKEN environment variable"; never the credential itself. */
    readonly credentialSource: string,
    /** The client's bound on a call, once it is built (provider.ts: the retry budget plus one attempt's timeout). */
    private readonly limits: () => CallLimits | undefined = () => undefined,
  ) {}

  private loaded(): CoreErrors | undefined {
    return typeof this.core === "function" ? this.core() : this.core;
  }

  isNotFound(err: unknown): boolean {
    const core = this.loaded();
    return !!core && err instanceof core.NotFoundError;
  }

  /** A 422 whose `field` errors say the value is taken ("has already been taken": a site's URL). */
  isTaken(err: unknown, field: string): boolean {
    const core = this.loaded();
    return !!core && err instanceof core.APIError && err.status === 422 && (err.errors?.[field] ?? []).some((m) => /taken/i.test(m));
  }

  /** A wait (for an upgrade pipeline) that ran out of time. */
  isTimeout(err: unknown): boolean {
    const core = this.loaded();
    return !!core && err instanceof core.WaitTimeoutError;
  }

  /** An operation (an upgrade pipeline) that ended failed or rolled back. */
  isOperationFailure(err: unknown): boolean {
    const core = this.loaded();
    return !!core && err instanceof core.OperationFailedError;
  }

  /** Reports `err` as a diagnostic; anything that is not an error of the core is a bug and is rethrown. */
  report(err: unknown, diags: Diagnostics, ctx: FailureContext): void {
    const { credentialSource } = this;
    const core = this.loaded();
    if (!core) throw err;
    if (err instanceof core.OtpRequiredError) {
      diags.error(`SiteOps login with ${credentialSource} needs a one-time code: set otp in the provider block.`, undefined, path("otp"));
    } else if (err instanceof core.APIError) {
      this.reportResponse(err, diags, ctx);
    } else if (err instanceof core.APIUserAbortError) {
      diags.error(
        `Could not ${ctx.action}: the operation was cancelled`,
        `Terraform asked the provider to stop before the SiteOps API answered.${ctx.ifCancelled ? ` ${ctx.ifCancelled}` : ""}`,
      );
    } else if (err instanceof core.CallTimeoutError) {
      diags.error(`Could not ${ctx.action}`, this.callTimeout(err));
    } else if (err instanceof core.UnexpectedResponseError) {
      // The core's sentence names the endpoint and the field: `GET /api/v1/sites/site_x: the site has no "url" ...`.
      const at = err.field === undefined ? undefined : (ctx.fieldPaths?.[err.field] ?? (ctx.schema?.attributes[err.field] ? path(err.field) : undefined));
      diags.error(`Could not ${ctx.action}: unexpected answer from SiteOps`, `${sentence(err.message)}${ctx.ifUnexpected ? ` ${ctx.ifUnexpected}` : ""}`, at);
    } else if (err instanceof core.APIConnectionError) {
      diags.error(`Could not ${ctx.action}: cannot reach SiteOps`, err.message);
    } else if (err instanceof core.SiteOpsError) {
      diags.error(`Could not ${ctx.action}`, err.message);
    } else {
      throw err;
    }
  }

  /** A call that ran out of time, in the provider's settings: docs/terraform.md, "A busy service". A write cut off
   * so may have happened; a create is found by its key at the next apply (keyed-create.ts). */
  private callTimeout(err: InstanceType<CoreErrors["CallTimeoutError"]>): string {
    const limits = this.limits();
    const bound = limits
      ? `${seconds(limits.retryBudgetMs)}, the retry budget (SITEOPS_RETRY_BUDGET_MS), plus one attempt's timeout of ${seconds(limits.timeout)} (request_timeout)`
      : seconds(err.timeoutMs);
    const why = [err.lastFailure && `the last failure: ${err.lastFailure}`, err.waitingFor && `it was waiting for ${err.waitingFor}`].filter(Boolean);
    return `${err.endpoint}: no success within ${bound}${why.length ? `; ${why.join("; ")}` : ""}. The service is overloaded or unreachable: apply again later.`;
  }

  private reportResponse(err: InstanceType<CoreErrors["APIError"]>, diags: Diagnostics, ctx: FailureContext): void {
    const requestId = err.requestId ? ` (request id ${err.requestId})` : "";
    // A 404 that is not the API's (a base_url ending in /api/v1): the core's sentence names the URL and the fix.
    if (err.code === "WRONG_BASE_URL") {
      diags.error(`Could not ${ctx.action}: the base URL is not the SiteOps service's root`, `${err.message} Set base_url (or SITEOPS_BASE_URL) to it.`);
      return;
    }
    if (err.status === 401) {
      diags.error(sentence(`SiteOps rejected the credentials from ${this.credentialSource}: ${err.error ?? "401 Unauthorized"}`));
      return;
    }
    if (err.status === 403) {
      diags.error(sentence(`SiteOps did not allow the credentials from ${this.credentialSource} to ${ctx.action}: ${err.error ?? "403 Forbidden"}`));
      return;
    }
    const fieldErrors = err.status === 422 && err.errors ? Object.entries(err.errors) : [];
    if (fieldErrors.length === 0) {
      diags.error(`Could not ${ctx.action}`, `SiteOps answered ${err.status}: ${sentenceBefore(err.error ?? err.message, requestId)}`);
      return;
    }
    for (const [field, messages] of fieldErrors) {
      const at = ctx.fieldPaths?.[field] ?? (ctx.schema?.attributes[field] ? path(field) : undefined);
      const text = messages.map((m) => `${field} ${m}`).join("; ");
      const hint = ctx.fieldHints?.[field] ? ` ${ctx.fieldHints[field]}` : "";
      if (at) diags.error(`Invalid ${field}`, `SiteOps could not ${ctx.action}: ${text}${requestId}.${hint}`, at);
      else diags.error(`Could not ${ctx.action}`, `${text}${requestId}.`);
    }
  }
}
