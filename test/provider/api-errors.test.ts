// The provider's error boundary: each core error becomes one diagnostic, field errors land on the attribute
// (by the schema, or an explicit mapping), and anything that is not a core error is rethrown. The errors are
// built by the core's own factory from the responses the emulator sends (the e2e tests show them live).
import { describe, expect, it } from "vitest";
import * as core from "../../src/index.js";
import { ApiErrors } from "../../provider/api-errors.js";
import { Diagnostics, path } from "../../provider/framework/diagnostics.js";
import { siteSchema } from "../../provider/resources/site-schema.js";

const errors = new ApiErrors(core, "api_token in the provider configuration");
const response = (status: number, body: unknown) => core.APIError.generate(status, body, { "x-request-id": "req_1" });

function report(err: unknown, ctx: Parameters<ApiErrors["report"]>[2] = { action: "create the site", schema: siteSchema }) {
  const diags = new Diagnostics();
  errors.report(err, diags, ctx);
  return diags.items;
}

describe("ApiErrors", () => {
  it("a 422 puts each field error on its attribute, and the others on the resource", () => {
    const err = response(422, { error: "Validation failed", errors: { url: ["is not a valid URL"], plan: ["is unknown"] } });
    expect(report(err)).toEqual([
      { severity: "error", summary: "Invalid url", detail: "SiteOps could not create the site: url is not a valid URL (request id req_1).", path: path("url") },
      { severity: "error", summary: "Could not create the site", detail: "plan is unknown (request id req_1).", path: undefined },
    ]);
  });

  it("maps API fields to attributes of another name", () => {
    const err = response(422, { error: "Validation failed", errors: { status: ["is not included in the list"] } });
    expect(report(err, { action: "update the endpoint", fieldPaths: { status: path("enabled") } })[0]!.path).toEqual(path("enabled"));
  });

  it("a 422 without field errors, 401, 403, 5xx: one line each, naming the credential source for auth", () => {
    expect(report(response(422, { error: "Pipeline is not awaiting approval" }))[0]!.detail).toBe(
      "SiteOps answered 422: Pipeline is not awaiting approval (request id req_1).",
    );
    expect(report(response(401, { error: "revoked token" }))[0]!.summary).toBe(
      "SiteOps rejected the credentials from api_token in the provider configuration: revoked token.",
    );
    expect(report(response(403, { error: "nope" }))[0]!.summary).toContain(
      "did not allow the credentials from api_token in the provider configuration to create the site",
    );
    expect(report(response(503, { error: "Internal server error" }))[0]!.detail).toBe("SiteOps answered 503: Internal server error (request id req_1).");
  });

  it("login, cancellation and connection failures", () => {
    expect(report(response(422, { error: "otp_attempt_required" }))[0]!.path).toEqual(path("otp"));
    expect(report(new core.APIUserAbortError())[0]!.summary).toBe("Could not create the site: the operation was cancelled");
    expect(report(new core.APIConnectionTimeoutError())[0]!.summary).toBe("Could not create the site: cannot reach SiteOps");
  });

  it("an answer of an unexpected shape: the core's sentence naming endpoint and field, on the attribute it names", () => {
    const err = new core.UnexpectedResponseError("GET /api/v1/sites/site_x", "url", 'the site has no "url" (expected a string)', "req_2");
    expect(report(err, { action: "read site site_x", schema: siteSchema })).toEqual([
      {
        severity: "error",
        summary: "Could not read site site_x: unexpected answer from SiteOps",
        detail: 'GET /api/v1/sites/site_x: the site has no "url" (expected a string) [request req_2].',
        path: path("url"),
      },
    ]);
    const created = report(new core.UnexpectedResponseError("POST /api/v1/sites", undefined, "the site is null, not an object"), {
      action: "create the site",
      ifUnexpected: "It may exist.",
    })[0]!;
    expect(created).toMatchObject({ detail: "POST /api/v1/sites: the site is null, not an object. It may exist.", path: undefined });
    expect(created.detail).not.toContain("bug");
  });

  it("recognises not-found by class, and rethrows what is not a core error", () => {
    expect(errors.isNotFound(response(404, { error: "Record not found" }))).toBe(true);
    expect(errors.isNotFound(response(410, { error: "Gone" }))).toBe(false);
    expect(errors.isNotFound(Object.assign(new Error("look-alike"), { code: "NOT_FOUND", status: 404 }))).toBe(false);
    expect(() => report(new TypeError("a bug"))).toThrow("a bug");
  });
});
