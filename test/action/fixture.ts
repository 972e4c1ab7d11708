// The action tests' shared fixture: an emulator seeded with an agency account (owner and member tokens, sites
// with twins and a failing one) and a fleet account, and the helpers that run the bundled action against it.
import { afterAll, beforeAll, expect } from "vitest";
import type { RunningEmulator, SeedFile } from "../../emulator/index.js";
import { startSeededEmulator } from "../support/emulator.js";
import { removeDir, tempDir } from "../support/temp.js";
import { SiteOps, type Site } from "../../src/index.js";
import { runAction, type ActionRun, type RunOptions } from "./run-action.js";

export const TOKEN = "sot_actionTestOwnerToken000001";
export const MEMBER_TOKEN = "sot_actionTestMemberToken00001";
export const FLEET_TOKEN = "sot_actionTestFleetToken000001";
export const WRONG_TOKEN = "sot_actionTestWrongToken000001";
export const FLEET_SIZE = 50;

export const SEED: SeedFile = {
  accounts: [
    {
      name: "Agency",
      users: [
        { email: "owner@example.com", password: "owner-password-1", name: "Owner", role: "owner" },
        { email: "member@example.com", password: "member-password-1", name: "Member", role: "member" },
      ],
      api_tokens: [
        { token: TOKEN, user_email: "owner@example.com" },
        { token: MEMBER_TOKEN, user_email: "member@example.com" },
      ],
      sites: [
        { name: "Blog", url: "https://blog.example.com", wp_version: "6.5", php_version: "8.2" },
        { name: "Shop", url: "https://shop.example.com", wp_version: "6.6", php_version: "8.2" },
        { name: "Legacy", url: "https://legacy.example.com", wp_version: "6.5", php_version: "8.2" },
        { name: "Legacy two", url: "https://legacy2.example.com", wp_version: "6.5", php_version: "8.2" },
        { name: "Down", url: "https://down.example.com" },
        { name: "Staging", url: "https://staging.example.com", wp_version: "6.5", php_version: "8.2" },
        { name: "Twin", url: "https://twin-a.example.com" },
        { name: "Twin", url: "https://twin-b.example.com" },
      ],
    },
    {
      name: "Fleet",
      users: [{ email: "fleet@example.com", password: "fleet-password-1", name: "Fleet", role: "owner" }],
      api_tokens: [{ token: FLEET_TOKEN, user_email: "fleet@example.com" }],
      sites: Array.from({ length: FLEET_SIZE }, (_, i) => ({ name: `Fleet ${i + 1}`, url: `https://fleet-${i + 1}.example.com` })),
    },
  ],
};

// Polls every 20 ms instead of 2 s: the emulator completes steps at once (stepSeconds 0).
const FAST = { SITEOPS_POLL_INTERVAL_MS: "20" };

/** What the tests of a file share; filled in by useActionEmulator's beforeAll. */
export interface ActionFixture {
  emu: RunningEmulator;
  client: SiteOps;
  sites: Record<string, Site>;
  dir: string;
}

/** Starts the seeded emulator (steps complete at once) for the tests of one file, and stops it after them. */
export function useActionEmulator(): ActionFixture {
  const fx = {} as ActionFixture;
  beforeAll(async () => {
    fx.emu = await startSeededEmulator(SEED);
    fx.client = new SiteOps({ baseUrl: fx.emu.url, apiToken: TOKEN });
    fx.sites = {};
    for await (const site of fx.client.sites.list({ per_page: 100 })) fx.sites[site.name] ??= site;
    fx.dir = tempDir("action-test");
  });
  afterAll(async () => {
    await fx.client?.close();
    await fx.emu?.close();
    if (fx.dir) removeDir(fx.dir);
  });
  return fx;
}

/** Runs the bundled action with fast polling. */
export const run = (inputs: Record<string, string>, env: Record<string, string> = {}, options: RunOptions = {}): Promise<ActionRun> =>
  runAction(inputs, { ...FAST, ...env }, options);

/** Nothing a user of the run sees contains a token (the runner consumes the ::add-mask:: line itself). */
export function expectNoSecrets(r: ActionRun): void {
  for (const token of [TOKEN, MEMBER_TOKEN, FLEET_TOKEN, WRONG_TOKEN]) expect(r.visible).not.toContain(token);
}
