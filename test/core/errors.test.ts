// The typed errors: status -> class and code, the service's messages and field errors, Retry-After, redaction.
import { describe, expect, it } from "vitest";
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  InternalServerError,
  NotFoundError,
  OtpRequiredError,
  PermissionDeniedError,
  RateLimitError,
  SiteOpsError,
  UnprocessableEntityError,
} from "../../src/index.js";
import { redact, redactHeaders } from "../../src/internal/redact.js";

describe("APIError.generate", () => {
  const headers = { "x-request-id": "req_123", "retry-after": "7" };

  it.each([
    [400, BadRequestError, "BAD_REQUEST"],
    [401, AuthenticationError, "AUTHENTICATION_FAILED"],
    [403, PermissionDeniedError, "PERMISSION_DENIED"],
    [404, NotFoundError, "NOT_FOUND"],
    [422, UnprocessableEntityError, "UNPROCESSABLE_ENTITY"],
    [429, RateLimitError, "RATE_LIMITED"],
    [500, InternalServerError, "SERVER_ERROR"],
    [503, InternalServerError, "SERVER_ERROR"],
  ])("maps %i to its class", (status, cls, code) => {
    const err = APIError.generate(status, { error: "Something" }, headers);
    expect(err).toBeInstanceOf(cls);
    expect(err).toBeInstanceOf(APIError);
    expect(err).toBeInstanceOf(SiteOpsError);
    expect(err.code).toBe(code);
    expect(err.status).toBe(status);
    expect(err.requestId).toBe("req_123");
    expect(err.message).toBe(`${status} Something`);
    expect(err.name).toBe(cls.name);
  });

  it("keeps the service's error string and field errors of a 422", () => {
    const err = APIError.generate(422, { error: "Validation failed: Name can't be blank", errors: { name: ["can't be blank"] } }, {});
    expect(err.error).toBe("Validation failed: Name can't be blank");
    expect(err.errors).toEqual({ name: ["can't be blank"] });
  });

  it("recognises otp_attempt_required as OtpRequiredError", () => {
    const err = APIError.generate(422, { error: "otp_attempt_required" }, {});
    expect(err).toBeInstanceOf(OtpRequiredError);
    expect(err).toBeInstanceOf(UnprocessableEntityError);
    expect(err.code).toBe("OTP_REQUIRED");
  });

  it("exposes Retry-After on a 429", () => {
    const err = APIError.generate(429, { error: "Rate limit exceeded. Try again in 7 seconds." }, headers) as RateLimitError;
    expect(err.retryAfter).toBe(7);
  });

  it("copes with a body that is not the documented JSON", () => {
    const err = APIError.generate(502, "<html>bad gateway</html>", {});
    expect(err).toBeInstanceOf(InternalServerError);
    expect(err.error).toBeUndefined();
    expect(err.message).toBe("502 Server error");
  });

  it("quotes a short plain-text body (Rails' HTTP token challenge), and names the status when there is none", () => {
    const rails = APIError.generate(401, "HTTP Token: Access denied.\n", { "content-type": "text/html; charset=utf-8" });
    expect(rails).toBeInstanceOf(AuthenticationError);
    expect(rails.message).toBe("401 HTTP Token: Access denied.");
    expect(APIError.generate(401, "", {}).message).toBe("401 Authentication failed");
    expect(APIError.generate(403, "<h1>Forbidden</h1>", {}).message).toBe("403 Permission denied");
    expect(APIError.generate(404, "line one\nline two", {}).error).toBeUndefined();
  });

  it("never puts a credential echoed by the server into the message", () => {
    const err = APIError.generate(401, { error: "bad token sot_abcdefghijklmnop1234 and Bearer eyJhbGciOi.eyJzdWIiOiJ4In0.sig" }, {});
    expect(err.message).not.toContain("sot_abcdefghijklmnop1234");
    expect(err.message).not.toContain("eyJzdWIiOiJ4In0");
    expect(err.error).not.toContain("sot_abcdefghijklmnop1234");
  });
});

describe("redaction", () => {
  it("replaces tokens, secrets and JWTs in text", () => {
    expect(redact("token sot_ABCdef1234567890xyz")).toBe("token [REDACTED]");
    expect(redact("secret whsec_c2VjcmV0c2VjcmV0")).toBe("secret [REDACTED]");
    expect(redact("Bearer abc.def.ghi-jklmnop")).toBe("Bearer [REDACTED]");
    expect(redact("nothing secret here")).toBe("nothing secret here");
  });

  it("keeps the scheme of an Authorization header and hides the credential", () => {
    const out = redactHeaders({ Authorization: "Bearer eyJx.eyJy.zz", "content-type": "application/json", cookie: "a=b" });
    expect(out).toEqual({ authorization: "Bearer [REDACTED]", "content-type": "application/json", cookie: "[REDACTED]" });
  });
});
