// The bundled action's failures, run as the runner runs it against the emulator: bad inputs reported at once,
// 401, 404, an unreachable service, and timeouts (of a snapshot, of a pipeline, a cancelled run, wait: false).
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { startSeededEmulator } from "../support/emulator.js";
import { expectNoSecrets, run, SEED, TOKEN, useActionEmulator, WRONG_TOKEN } from "./fixture.js";

const fx = useActionEmulator();
const base = (): Record<string, string> => ({ "api-token": TOKEN, "base-url": fx.emu.url });

describe("failures", () => {
  it("reports every missing or malformed input at once, before any request", async () => {
    const r = await run({
      "api-token": TOKEN,
      "base-url": "ftp://example.com",
      command: "snapshot",
      site: "all",
      "upload-file": path.join(fx.dir, "missing.sql"),
      concurrency: "0",
      wait: "yes",
      "timeout-minutes": "-1",
      "pipeline-id": "upg_ignored",
    });
    expect(r.code).toBe(1);
    expect(r.errors).toHaveLength(1);
    const line = r.errors[0]!;
    expect(line).toMatch(/^Invalid input: /);
    for (const fragment of [
      "'base-url' must be an http or https URL (got ftp)",
      `'wait' must be true or false (got "yes")`,
      `'timeout-minutes' must be a number of minutes above 0 and at most 1440 (got "-1")`,
      "'upload-file' \"",
      "does not exist",
      "'upload-file' needs exactly one site",
      `'concurrency' must be a whole number from 1 to 64 (got "0")`,
    ]) {
      expect(line).toContain(fragment);
    }
    expect(r.warnings).toEqual(["Input 'pipeline-id' is ignored by the snapshot command (it is read by approve)."]);
    expect(r.outputs).toEqual({});
    expectNoSecrets(r);
  });

  it("requires a command, a token and a base URL", async () => {
    const r = await run({ site: "Blog" });
    expect(r.code).toBe(1);
    expect(r.errors).toEqual([
      "Invalid input: 'api-token' is required (or set SITEOPS_API_TOKEN); 'command' is required: one of snapshot, upgrade, approve, vulnerabilities, rollout; 'base-url' is required (or set SITEOPS_BASE_URL).",
    ]);
  });

  it("checks each command's own inputs", async () => {
    const upgrade = await run({ ...base(), command: "upgrade", site: "Blog\nShop", "wp-version": "6.7.1" });
    expect(upgrade.errors).toEqual([
      "Invalid input: 'site' must be one site for the upgrade command (lists and 'all' are for snapshot, vulnerabilities and rollout); 'wp-version' must be a major.minor version such as 6.5 (got \"6.7.1\").",
    ]);
    const approve = await run({ ...base(), command: "approve", site: "Blog" });
    expect(approve.errors).toEqual(["Invalid input: 'pipeline-id' is required by the approve command (the pipeline-id output of the upgrade command)."]);
  });

  it("fails with one line on a wrong token (401), without retrying and without printing it", async () => {
    const r = await run({ ...base(), "api-token": WRONG_TOKEN, command: "snapshot", site: "Blog" });
    expect(r.code).toBe(1);
    expect(r.errors).toEqual([
      expect.stringMatching(
        /^Site Operations API 401: The API token from 'api-token' was refused \(You need to sign in or sign up before continuing\)\. Request id: \S+\. Check 'api-token'/,
      ),
    ]);
    expect(r.stdout).toContain(`::add-mask::${WRONG_TOKEN}`);
    expectNoSecrets(r);
  });

  it("a wrong token from SITEOPS_API_TOKEN names the variable", async () => {
    const r = await run({ "base-url": fx.emu.url, command: "snapshot", site: "Blog" }, { SITEOPS_API_TOKEN: WRONG_TOKEN });
    expect(r.code).toBe(1);
    expect(r.errors).toEqual([
      expect.stringMatching(/^Site Operations API 401: The API token from SITEOPS_API_TOKEN was refused .* Check SITEOPS_API_TOKEN: it is wrong or revoked\.$/),
    ]);
    expectNoSecrets(r);
  });

  it("names the site it cannot find, and the twins it cannot tell apart", async () => {
    const missing = await run({ ...base(), command: "snapshot", site: "Blog, Nope" });
    expect(missing.code).toBe(1);
    expect(missing.errors).toEqual([`No site with the exact name "Nope" in this account (it has 8 sites).`]);
    const byId = await run({ ...base(), command: "upgrade", site: "site_0000000000000000", "wp-version": "6.7" });
    // Shaped like an id: tried as an id, then as a name (which needs the listing, hence the count).
    expect(byId.errors).toEqual([`No site with the id or exact name "site_0000000000000000" in this account (it has 8 sites).`]);
    const twins = await run({ ...base(), command: "snapshot", site: "Twin" });
    expect(twins.errors).toEqual([expect.stringMatching(/^2 sites are named "Twin": give one of their ids instead \(site_\w+, site_\w+\)\.$/)]);
  });

  it("fails with the API's 404 and a hint for an unknown pipeline", async () => {
    const r = await run({ ...base(), command: "approve", site: "Shop", "pipeline-id": "upg_0000000000000000" });
    expect(r.code).toBe(1);
    expect(r.errors).toEqual([
      expect.stringMatching(
        /^Site Operations API 404: Record not found\. Request id: \S+\. Site Shop has no pipeline upg_0000000000000000: check 'pipeline-id' and 'site'\.$/,
      ),
    ]);
  });

  it("cannot reach a service that is not there: one annotation naming the URL", async () => {
    const r = await run({ ...base(), "base-url": "http://127.0.0.1:9", command: "snapshot", site: "Blog" }, { SITEOPS_MAX_RETRIES: "0" });
    expect(r.code).toBe(1);
    expect(r.errors).toEqual([
      "Cannot reach http://127.0.0.1:9: nothing accepted the connection (ECONNREFUSED); check that the service is running and the base URL's host and port.",
    ]);
  });

  it("a service that never answered gets one short retry, said in the job log, then one annotation", async () => {
    const r = await run({ ...base(), "base-url": "http://127.0.0.1:9", command: "snapshot", site: "Blog" });
    expect(r.code).toBe(1);
    const waits = r.stdout.split("\n").filter((l) => l.startsWith("SiteOps API:"));
    expect(waits).toHaveLength(1);
    expect(waits[0]).toMatch(/^SiteOps API: GET \/api\/v1\/sites\S*: could not connect \(ECONNREFUSED\); retry 1 in /);
    expect(r.errors).toEqual([
      expect.stringMatching(/^Cannot reach http:\/\/127\.0\.0\.1:9: nothing accepted the connection \(ECONNREFUSED\) in 2 attempts; /),
    ]);
  });
});

describe("timeout", () => {
  let slow: RunningEmulator;
  beforeAll(async () => {
    // An hour per step: nothing completes while the action waits.
    slow = await startSeededEmulator(SEED, { stepSeconds: 3600 });
  });
  afterAll(async () => {
    await slow?.close();
  });

  it("gives up after timeout-minutes and still reports the snapshot it started", async () => {
    const r = await run({ "api-token": TOKEN, "base-url": slow.url, command: "snapshot", site: "Shop", "timeout-minutes": "0.01" });
    expect(r.code).toBe(1);
    expect(r.outputs["snapshot-id"]).toMatch(/^snap_/);
    expect(r.outputs.status).toBe("failed");
    expect(r.errors).toEqual([expect.stringMatching(/^Timed out waiting: snapshot snap_\w+ is requested\. Raise 'timeout-minutes', or set 'wait: false'\.$/)]);
  });

  it("gives up waiting for a pipeline and outputs its id and last status", async () => {
    const r = await run({ "api-token": TOKEN, "base-url": slow.url, command: "upgrade", site: "Shop", "wp-version": "6.7", "timeout-minutes": "0.01" });
    expect(r.code).toBe(1);
    expect(r.outputs["pipeline-id"]).toMatch(/^upg_/);
    expect(r.outputs.status).toBe("pending");
    expect(r.errors).toEqual([expect.stringMatching(/^Timed out waiting: upgrade pipeline upg_\w+ is pending\./)]);
  });

  it("stops waiting when the workflow run is cancelled (SIGINT) and still writes what it started", async () => {
    const r = await run(
      { "api-token": TOKEN, "base-url": slow.url, command: "snapshot", site: "Blog, Shop" },
      {},
      {
        interrupt: { when: /Shop: snapshot snap_\w+ created/, signal: "SIGINT" },
      },
    );
    expect(r.code).toBe(1);
    const ids = JSON.parse(r.outputs["snapshot-ids"]!) as Record<string, string>;
    expect(Object.keys(ids)).toHaveLength(2);
    expect(r.outputs.status).toBe("failed");
    expect(r.errors.at(-1)).toMatch(/^2 of 2 snapshots failed: Blog, Shop\. Cancelled: the workflow run was cancelled while waiting/);
    expect(r.summary).toContain("0 of 2 snapshots completed, 2 failed.");
  });

  it("returns at once with wait: false", async () => {
    const r = await run({ "api-token": TOKEN, "base-url": slow.url, command: "snapshot", site: "Blog", wait: "false" });
    expect(r.errors).toEqual([]);
    expect(r.code).toBe(0);
    expect(r.outputs.status).toBe("requested");
  });
});
