// The one reading of a base URL and an API token (common/settings.ts) that the client, the CLI, the action and the
// provider share: the same trimming, the same refusals, the same words, each naming the source it came from.
import { afterEach, describe, expect, it, vi } from "vitest";
import { apiTokenProblem, baseUrlOf, baseUrlProblem, firstSetting } from "../../common/settings.js";
import { ConnectionSettingError, SiteOps } from "../../src/index.js";

afterEach(() => vi.unstubAllEnvs());

describe("firstSetting", () => {
  it("takes the first source that is set, trimmed; a blank one counts as unset", () => {
    expect(
      firstSetting([
        { value: "  ", name: "a" },
        { value: undefined, name: "b" },
        { value: " x\n", name: "c" },
      ]),
    ).toEqual({ value: "x", name: "c" });
    expect(
      firstSetting([
        { value: "", name: "a" },
        { value: null, name: "b" },
      ]),
    ).toBeUndefined();
  });
});

describe("apiTokenProblem and baseUrlProblem", () => {
  it("refuse a token with whitespace inside, naming the source", () => {
    expect(apiTokenProblem({ value: "sot_abc", name: "SITEOPS_API_TOKEN" })).toBeUndefined();
    expect(apiTokenProblem({ value: "sot_abc sot_def", name: "'api-token'" })).toBe("'api-token' must not contain whitespace");
  });

  it("take an absolute http(s) URL without credentials, query or fragment; baseUrlOf drops its trailing slash", () => {
    expect(baseUrlProblem({ value: "https://SiteOps.Example.com/", name: "x" })).toBeUndefined();
    expect(baseUrlOf("https://SiteOps.Example.com/")).toBe("https://siteops.example.com");
    expect(baseUrlOf("http://127.0.0.1:4747/prefix/")).toBe("http://127.0.0.1:4747/prefix");
    const problems = ["siteops.example.com", "ftp://a.example", "https://u:p@a.example", "https://a.example/?x=1", "https://a.example/#f", "https://"].map(
      (value) => baseUrlProblem({ value, name: "SITEOPS_BASE_URL" }),
    );
    expect(problems).toEqual([
      "SITEOPS_BASE_URL has no scheme: use https://siteops.example.com (or http:// for a local emulator)",
      "SITEOPS_BASE_URL must be an http or https URL (got ftp)",
      "SITEOPS_BASE_URL must not contain credentials: give the API token instead",
      "SITEOPS_BASE_URL must not have a query or fragment",
      "SITEOPS_BASE_URL must not have a query or fragment",
      'SITEOPS_BASE_URL is not a valid URL (got "https://")',
    ]);
  });
});

describe("the client reads them the same way", () => {
  it("trims SITEOPS_BASE_URL and SITEOPS_API_TOKEN, and refuses a token with whitespace inside", async () => {
    vi.stubEnv("SITEOPS_BASE_URL", " https://siteops.example.com/ \n");
    vi.stubEnv("SITEOPS_API_TOKEN", " sot_trimmed\n");
    const so = new SiteOps();
    expect(so.baseUrl).toBe("https://siteops.example.com");
    await so.close();
    vi.stubEnv("SITEOPS_API_TOKEN", "sot_one sot_two");
    expect(() => new SiteOps()).toThrow(new ConnectionSettingError("SITEOPS_API_TOKEN", "SITEOPS_API_TOKEN must not contain whitespace"));
    expect(() => new SiteOps({ apiToken: "a\tb" })).toThrow("apiToken must not contain whitespace");
    expect(() => new SiteOps({ baseUrl: "siteops.example.com" })).toThrow("baseUrl has no scheme");
  });
});
