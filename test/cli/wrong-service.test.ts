// A wrong or dead service, and a wrong token, as the CLI reports them: one error line naming the URL (or where the
// token came from) and the fix, no stack, no raw OpenSSL text, with the exit code of cli/exit-codes.ts. Attempts are
// counted from the retry lines, never timed.
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { PASSWORD } from "../core/helpers.js";
import { runCli, useTestBed, type CliResult } from "./helpers.js";

/** A loopback port nothing listens on: bound on port 0, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const bed = useTestBed();

/** The error line of a failed run: exactly one line starting `error: `, no stack, no literal `\n`. */
function errorLine(r: CliResult): string {
  expect(r.stdout).toBe("");
  const lines = r.stderr.split("\n").filter((l) => l !== "" && !/^siteops: .*; retry \d+ in /.test(l));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^error: /);
  expect(lines[0]).not.toMatch(/\\n|SSL routines|^\s+at /);
  return lines[0]!.slice("error: ".length);
}
const retryLines = (r: CliResult) => r.stderr.split("\n").filter((l) => /; retry \d+ in /.test(l)).length;

describe("a wrong or dead service", () => {
  it("an unknown host: one line, no retry, exit 1", async () => {
    const r = await runCli(["sites", "list"], { env: { ...bed.env, SITEOPS_BASE_URL: "https://siteops-nowhere.invalid" } });
    expect(r.code).toBe(1);
    expect(errorLine(r)).toBe(
      "Cannot reach https://siteops-nowhere.invalid: its host name siteops-nowhere.invalid was not found (ENOTFOUND); check the base URL for a typo.",
    );
    expect(retryLines(r)).toBe(0);
  });

  it("nothing listening: one short retry, one line, exit 1", async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const r = await runCli(["sites", "list"], { env: { ...bed.env, SITEOPS_BASE_URL: url } });
    expect(r.code).toBe(1);
    expect(errorLine(r)).toBe(
      `Cannot reach ${url}: nothing accepted the connection (ECONNREFUSED) in 2 attempts; check that the service is running and the base URL's host and port.`,
    );
    expect(retryLines(r)).toBe(1);
  });

  it("https:// against the emulator's plain-HTTP port: one line saying to use http://, no retry, exit 1", async () => {
    const url = bed.emu.url.replace(/^http:/, "https:");
    const r = await runCli(["sites", "list"], { env: { ...bed.env, SITEOPS_BASE_URL: url } });
    expect(r.code).toBe(1);
    expect(errorLine(r)).toBe(
      `Cannot reach ${url}: the server there does not speak TLS (ERR_SSL_WRONG_VERSION_NUMBER); use ${bed.emu.url} if it is a plain-HTTP service such as a local emulator, or check the port.`,
    );
    expect(retryLines(r)).toBe(0);
  });

  it("a base URL ending in /api/v1: one line naming the URL and the service's root, exit 1", async () => {
    const r = await runCli(["sites", "list"], { env: { ...bed.env, SITEOPS_BASE_URL: `${bed.emu.url}/api/v1` } });
    expect(r.code).toBe(1);
    expect(errorLine(r)).toBe(
      `The base URL ${bed.emu.url}/api/v1 ends in /api/v1, so GET ${bed.emu.url}/api/v1/api/v1/sites was not found (HTTP 404); the base URL should be the service's root, ${bed.emu.url}.`,
    );
  });
});

describe("a wrong token names where it came from", () => {
  it("from SITEOPS_API_TOKEN: the variable and its fix, exit 3", async () => {
    const r = await runCli(["sites", "list"], { env: { ...bed.env, SITEOPS_API_TOKEN: "sot_wrongToken00000000000" } });
    expect(r.code).toBe(3);
    expect(errorLine(r)).toMatch(
      /^The API token from SITEOPS_API_TOKEN was refused \(You need to sign in or sign up before continuing\) \[HTTP 401, request req_\w+\]\. Set SITEOPS_API_TOKEN to a valid API token, or unset it to use the saved login \(siteops auth status\)\.$/,
    );
  });

  it("given to auth login --with-token: stdin, exit 3", async () => {
    const { SITEOPS_API_TOKEN: _token, ...env } = bed.env;
    const r = await runCli(["auth", "login", "--profile", "wrong", "--base-url", bed.emu.url, "--with-token"], { env, input: "sot_wrongToken00000000000\n" });
    expect(r.code).toBe(3);
    expect(errorLine(r)).toMatch(
      /^The API token from stdin was refused \(You need to sign in or sign up before continuing\) \[HTTP 401, request req_\w+\]\. Give a valid API token on stdin \(siteops auth login --with-token\)\.$/,
    );
  });

  it("from the saved login: the profile and the config file, and siteops auth login, exit 3", async () => {
    const { SITEOPS_API_TOKEN: _token, ...env } = bed.env;
    const login = await runCli(["auth", "login", "--base-url", bed.emu.url, "--email", "owner@acme.test", "--password-stdin"], { env, input: `${PASSWORD}\n` });
    expect(login.code).toBe(0);
    // The token it saved is revoked on the service (DELETE /api/v1/auth), as after a leak.
    const saved = (JSON.parse(readFileSync(bed.box.configFile, "utf8")) as { profiles: Record<string, { api_token: string }> }).profiles.default!.api_token;
    const revoked = await fetch(`${bed.emu.url}/api/v1/auth`, { method: "DELETE", headers: { authorization: `token ${saved}` } });
    expect(revoked.ok).toBe(true);
    const r = await runCli(["sites", "list"], { env });
    expect(r.code).toBe(3);
    expect(errorLine(r)).toMatch(
      new RegExp(
        `^The API token from the saved login of profile "default" \\(${bed.box.configFile.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\) was refused .* Log in again: siteops auth login \\(with the same --profile; siteops auth status shows the login\\)\\.$`,
      ),
    );
  });
});
