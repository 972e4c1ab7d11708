// The rule of an empty selection in the action (issue 47 item 5), as in the CLI (the core's checkSelection): the
// fleet commands (snapshot, vulnerabilities, rollout) fail the step when the selection holds no site (a token of an
// account with no sites, as a workflow with the wrong secret has), unless 'allow-empty: true'; a shard that holds
// none of a non-empty selection's sites is never a failure.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { inShard } from "../../src/fleet.js";
import { SiteOps } from "../../src/index.js";
import { startSeededEmulator } from "../support/emulator.js";
import { runAction } from "./run-action.js";

const EMPTY_TOKEN = "sot_actionEmptyAccountToken0001";
const FLEET_TOKEN = "sot_actionEmptyFleetToken00001";

let emu: RunningEmulator;
let ids: string[];

beforeAll(async () => {
  emu = await startSeededEmulator({
    accounts: [
      {
        name: "Empty",
        users: [{ email: "empty@example.com", password: "empty-password-1", name: "Empty", role: "owner" }],
        api_tokens: [{ token: EMPTY_TOKEN, user_email: "empty@example.com" }],
        sites: [],
      },
      {
        name: "Two",
        users: [{ email: "two@example.com", password: "two-password-1", name: "Two", role: "owner" }],
        api_tokens: [{ token: FLEET_TOKEN, user_email: "two@example.com" }],
        sites: [
          { name: "One", url: "https://one.example.com", wp_version: "6.5", php_version: "8.2" },
          { name: "Two", url: "https://two.example.com", wp_version: "6.5", php_version: "8.2" },
        ],
      },
    ],
  });
  const client = new SiteOps({ baseUrl: emu.url, apiToken: FLEET_TOKEN });
  ids = (await client.sites.list().toArray()).map((s) => s.id);
  await client.close();
});
afterAll(async () => emu?.close());

const run = (token: string, inputs: Record<string, string>) =>
  runAction({ "api-token": token, "base-url": emu.url, site: "all", ...inputs }, { SITEOPS_POLL_INTERVAL_MS: "20" });

const COMMANDS: Record<string, string>[] = [{ command: "snapshot" }, { command: "vulnerabilities" }, { command: "rollout", "wp-version": "6.8" }];

describe("an empty selection fails the step unless 'allow-empty'", () => {
  it.each(COMMANDS)("$command on an account with no sites: failed, saying why and how to allow it", async (inputs) => {
    const r = await run(EMPTY_TOKEN, inputs);
    expect(r.code).toBe(1);
    expect(r.errors).toEqual(["No site selected: the account has no sites (a token of another account?). Set 'allow-empty: true' if that is expected."]);
    const allowed = await run(EMPTY_TOKEN, { ...inputs, "allow-empty": "true" });
    expect(allowed.errors).toEqual([]);
    expect(allowed.code).toBe(0);
    expect(allowed.notices).toContain(
      "No site selected: the account has no sites (a token of another account?); nothing to do (an empty selection is allowed).",
    );
  });

  it("a shard that holds none of a non-empty selection's sites is not a failure", async () => {
    const index = Array.from({ length: 64 }, (_, i) => i + 1).find((i) => ids.every((id) => !inShard(id, { index: i, count: 64 })))!;
    const r = await run(FLEET_TOKEN, { command: "snapshot", shard: `${index}/64` });
    expect(r.errors).toEqual([]);
    expect(r.code).toBe(0);
    expect(r.notices).toContain(`None of the 2 selected sites is in shard ${index}/64; nothing to do here.`);
  });

  it("'allow-empty' must be true or false", async () => {
    const r = await run(FLEET_TOKEN, { command: "snapshot", "allow-empty": "maybe" });
    expect(r.code).toBe(1);
    expect(r.errors[0]).toMatch(/'allow-empty' must be true or false \(got "maybe"\)/);
  });
});
