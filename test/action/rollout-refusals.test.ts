// `command: rollout` refused by the service as a whole, through the bundled action: a revoked token fails the step
// (whatever 'max-failures' allows: the run ends as refused credentials, not as 2 failed sites of 2 allowed), and a
// target the service does not offer fails it in the service's words with no pipeline opened, as the CLI's exit 2.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { writeShardFiles } from "../../src/fleet.js";
import { SiteOps, type Site } from "../../src/index.js";
import { ownerSeed, startSeededEmulator } from "../support/emulator.js";
import { runAction } from "./run-action.js";

const TOKEN = "sot_actionRolloutRefusalToken1";

let emu: RunningEmulator;
let client: SiteOps;
let fleet: Site[];
let dir: string;

beforeAll(async () => {
  const seed = ownerSeed("Refusals", TOKEN, 3);
  for (const site of seed.accounts![0]!.sites!) Object.assign(site, { wp_version: "6.5" });
  emu = await startSeededEmulator(seed);
  client = new SiteOps({ baseUrl: emu.url, apiToken: TOKEN });
  fleet = await client.sites.list({ per_page: 100 }).toArray();
  dir = mkdtempSync(path.join(tmpdir(), "siteops-action-rollout-refusals-"));
  writeShardFiles(dir, fleet, 1);
});
afterAll(async () => {
  await client?.close();
  await emu?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const rollout = (inputs: Record<string, string>) =>
  runAction(
    { "base-url": emu.url, command: "rollout", "sites-file": path.join(dir, "shard-1-of-1.json"), waves: "100%", gates: "pipeline", ...inputs },
    { SITEOPS_POLL_INTERVAL_MS: "20" },
  );
const pipelines = async () => (await Promise.all(fleet.map((s) => client.upgradePipelines.list(s.id).toArray()))).flat();

it("a revoked token fails the step, even with max-failures 100%", async () => {
  const r = await rollout({ "api-token": "sot_revokedRolloutToken0000001", "wp-version": "6.8", "max-failures": "100%" });
  expect(r.code).toBe(1);
  expect(r.outputs.status).toBe("refused");
  expect(r.errors.at(-1)).toMatch(/^The rollout to WordPress 6\.8 stopped: Site Operations API 401: The API token from 'api-token' was refused/);
  const result = JSON.parse(r.outputs.result!) as { refusal: { reason: string; error: { code: string; status: number } } };
  expect(result.refusal).toMatchObject({ reason: "credentials", error: { code: "AUTHENTICATION_FAILED", status: 401 } });
  expect(await pipelines()).toEqual([]);
});

it("a target the service does not offer fails the step in the service's words; no pipeline is opened", async () => {
  const r = await rollout({ "api-token": TOKEN, "wp-version": "9.9", "max-failures": "100%" });
  expect(r.code).toBe(1);
  expect(r.outputs.status).toBe("refused");
  expect(r.errors.at(-1)).toMatch(/the service refuses the target WordPress 9\.9: to_wp_version is not included in the list/);
  expect(await pipelines()).toEqual([]);
});
