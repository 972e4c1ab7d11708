// The provider's boundary for core errors: each becomes one diagnostic, pointing at the attribute the API
// complained about when it names one. Tokens never reach a message (the core already redacts them).
import type { APIError, SiteOpsError } from "../src/errors.js";
import { path, type AttributePath, type Diagnostics } from "./framework/diagnostics.js";

export interface ErrorContext {
  /** What was being done, for the summary: "create the site". */
  action: string;
  credentialSource: string;
  /** API field name -> attribute path; defaults to the attribute of the same name when it exists. */
  fields?: readonly string[];
  fieldPaths?: Record<string, AttributePath>;
}

// The API client is bundled apart from the provider and loaded lazily (see scripts/build-provider.mjs), so
// its error classes are not the ones `instanceof` here would see: errors are recognised by their stable
// `code` and `status` instead, which the core guarantees.
function isSiteOpsError(err: unknown): err is SiteOpsError {
  return err instanceof Error && typeof (err as { code?: unknown }).code === "string";
}

function isAPIError(err: unknown): err is APIError {
  return isSiteOpsError(err) && typeof (err as { status?: unknown }).status === "number";
}

export function isNotFound(err: unknown): boolean {
  return isAPIError(err) && err.status === 404;
}

function requestId(err: APIError): string {
  return err.requestId ? ` (request id ${err.requestId})` : "";
}

export function reportError(err: unknown, diags: Diagnostics, ctx: ErrorContext): void {
  if (isSiteOpsError(err) && err.code === "OTP_REQUIRED") {
    diags.error(`SiteOps login with ${ctx.credentialSource} needs a one-time code: set otp in the provider block.`, undefined, path("otp"));
    return;
  }
  if (isAPIError(err) && err.status === 401) {
    diags.error(`SiteOps rejected the credentials from ${ctx.credentialSource}: ${err.error ?? "401 Unauthorized"}.`);
    return;
  }
  if (isAPIError(err) && err.status === 403) {
    diags.error(`SiteOps did not allow the credentials from ${ctx.credentialSource} to ${ctx.action}: ${err.error ?? "403 Forbidden"}.`);
    return;
  }
  if (isAPIError(err) && err.status === 422 && err.errors && Object.keys(err.errors).length) {
    let mapped = 0;
    for (const [field, messages] of Object.entries(err.errors)) {
      const at = ctx.fieldPaths?.[field] ?? (ctx.fields?.includes(field) ? path(field) : undefined);
      const text = messages.map((m) => `${field} ${m}`).join("; ");
      if (at) {
        diags.error(`Invalid ${field}`, `SiteOps could not ${ctx.action}: ${text}${requestId(err)}.`, at);
        mapped++;
      } else {
        diags.error(`Could not ${ctx.action}`, `${text}${requestId(err)}.`);
      }
    }
    if (mapped || Object.keys(err.errors).length) return;
  }
  if (isAPIError(err)) {
    diags.error(`Could not ${ctx.action}`, `SiteOps answered ${err.status}: ${err.error ?? err.message}${requestId(err)}.`);
    return;
  }
  if (isSiteOpsError(err) && err.code === "ABORTED") {
    diags.error(`Could not ${ctx.action}: the operation was cancelled`, "Terraform asked the provider to stop before the SiteOps API answered.");
    return;
  }
  if (isSiteOpsError(err) && (err.code === "CONNECTION_ERROR" || err.code === "TIMEOUT")) {
    diags.error(`Could not ${ctx.action}: cannot reach SiteOps`, err.message);
    return;
  }
  if (isSiteOpsError(err)) {
    diags.error(`Could not ${ctx.action}`, err.message);
    return;
  }
  throw err;
}
