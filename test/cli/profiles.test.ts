// The CLI's journeys of issue 36 against both emulator profiles (the 23-site fleet of test/core/profile-fleet.ts):
// the listing and the nightly fleet job see every site though the minimal profile pages by 5 without saying so,
// sites are selected by ids of any length (an id first, then names), shard files round-trip, an HTML 401 is one
// error line with exit 3, and `sites delete` asks on a terminal and needs --yes elsewhere.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROFILES } from "../support/emulator.js";
import type { Site } from "../../src/index.js";
import { FLEET_SIZE, FLEET_TOKEN, LOOKALIKE, startProfileFleet, type ProfileFleet } from "../core/profile-fleet.js";
import { json, runCli, runInTerminal, sandbox, startCli, transcripts, type Sandbox } from "./helpers.js";

interface Record_ {
  site: { id: string };
  outcome: string;
  snapshot: { id: string; status: string } | null;
}

describe.each(PROFILES)("profile %s", (profile) => {
  let fx: ProfileFleet;
  let box: Sandbox;
  let env: NodeJS.ProcessEnv;
  let out: string;
  beforeAll(async () => {
    fx = await startProfileFleet(profile);
    box = sandbox();
    env = { ...box.env, SITEOPS_BASE_URL: fx.url, SITEOPS_API_TOKEN: FLEET_TOKEN, SITEOPS_POLL_INTERVAL_MS: "20" };
    out = mkdtempSync(path.join(tmpdir(), "siteops-cli-profiles-"));
  });
  afterAll(async () => {
    await fx?.close();
    box?.cleanup();
    if (out) rmSync(out, { recursive: true, force: true });
    for (const text of transcripts) expect(text).not.toContain(FLEET_TOKEN);
  });

  const cli = (...args: string[]) => runCli(args, { env });
  const completedBy = async (site: Site) => (await fx.so.snapshots.list(site.id).toArray()).filter((s) => s.status === "completed");

  it("sites list --json prints every site", async () => {
    const r = await cli("sites", "list", "--json=id,name");
    expect(r.code).toBe(0);
    expect(json<{ id: string }[]>(r).map((s) => s.id)).toEqual(fx.sites.map((s) => s.id));
    const lines = (await cli("sites", "list", "--jsonl")).stdout.trim().split("\n");
    expect(lines).toHaveLength(FLEET_SIZE);
  });

  it("snapshot create --all --trigger scheduled snapshots every site once and exits 0", async () => {
    const r = await cli("snapshot", "create", "--all", "--trigger", "scheduled", "--concurrency", "8", "--json");
    expect(r.stderr).toContain(`snapshots of ${FLEET_SIZE} sites, 8 at a time`);
    expect(r.stderr).toContain(`done: ${FLEET_SIZE} of ${FLEET_SIZE} snapshots completed`);
    expect(r.code).toBe(0);
    const records = json<Record_[]>(r);
    expect(records.map((x) => x.site.id).sort()).toEqual(fx.sites.map((s) => s.id).sort());
    expect(records.every((x) => x.outcome === "completed")).toBe(true);
    // Through the API: each site has exactly the one snapshot this run made, completed and scheduled.
    for (const site of fx.sites) {
      const done = await completedBy(site);
      expect(done.map((s) => [s.id, s.trigger])).toEqual([[records.find((x) => x.site.id === site.id)!.snapshot!.id, "scheduled"]]);
    }
  });

  it("snapshot create --site takes the 8th site's id and several ids of any length", async () => {
    const eighth = fx.sites[7]!;
    if (profile === "minimal") expect(eighth.id).toMatch(/^site_[A-Za-z0-9]{6}$/);
    const one = await cli("snapshot", "create", "--site", eighth.id, "--json");
    expect(one.code).toBe(0);
    expect(json<Record_[]>(one).map((x) => [x.site.id, x.outcome])).toEqual([[eighth.id, "completed"]]);

    // More than three ids are answered from one listing: every page of it.
    const ids = [fx.sites[1]!.id, fx.sites[12]!.id, fx.sites[17]!.id, fx.sites[21]!.id];
    const several = await cli("snapshot", "create", ...ids.flatMap((id) => ["--site", id]), "--json");
    expect(several.code).toBe(0);
    expect(json<Record_[]>(several).map((x) => [x.site.id, x.outcome])).toEqual(ids.map((id) => [id, "completed"]));
  });

  it("activity --follow shows its backlog of 10 entries from pages of any size, then what comes", async () => {
    const run = startCli(["activity", "--follow", "--interval", "200ms", "--jsonl"], { env });
    await run.waitFor(/\n/, "stdout");
    await fx.so.webhookEndpoints.create({ url: "https://hooks.example.com/followed" });
    await run.waitFor(/webhook_endpoint\.created/, "stdout");
    run.child.kill("SIGINT");
    const result = await run.done;
    expect(result.code).toBe(130);
    const actions = result.stdout
      .trim()
      .split("\n")
      .map((l) => (JSON.parse(l) as { action: string }).action);
    expect(actions.indexOf("webhook_endpoint.created")).toBe(10);
  });

  it("sites get takes an id before a name shaped like one, and such a name when no id matches", async () => {
    const byId = await cli("sites", "get", fx.idOwner.id, "--json=id,name");
    expect(json(byId)).toEqual({ id: fx.idOwner.id, name: "Site 5" });
    const byName = await cli("sites", "get", LOOKALIKE, "--json=id,name");
    expect(json(byName)).toEqual({ id: fx.lookalike.id, name: LOOKALIKE });
    const none = await cli("sites", "get", "site_nothere1");
    expect([none.code, none.stdout, none.stderr]).toEqual([
      2,
      "",
      `error: no site with the id or exact name "site_nothere1" in this account (it has ${FLEET_SIZE} sites)\n`,
    ]);
  });

  it("sites matrix --out writes shard files that snapshot create --sites-from reads, covering every site once", async () => {
    const dir = path.join(out, "shards");
    const matrix = await cli("sites", "matrix", "--shards", "2", "--out", dir);
    expect(matrix.stderr).toBe(`wrote 2 shard files of ${FLEET_SIZE} sites and matrix.json into ${dir}\n`);
    expect(matrix.code).toBe(0);
    const seen: string[] = [];
    for (const i of [1, 2]) {
      const r = await cli("snapshot", "create", "--sites-from", path.join(dir, `shard-${i}-of-2.json`), "--json");
      expect(r.stderr).not.toContain("error");
      expect(r.code).toBe(0);
      const records = json<Record_[]>(r);
      expect(records.every((x) => x.outcome === "completed")).toBe(true);
      seen.push(...records.map((x) => x.site.id));
    }
    expect(seen.sort()).toEqual(fx.sites.map((s) => s.id).sort());
  });

  it("a refused token (an HTML 401 in minimal) is one error line and exit 3", async () => {
    for (const args of [
      ["sites", "list"],
      ["snapshot", "create", "--all", "--trigger", "scheduled"],
    ]) {
      const r = await runCli(args, { env: { ...env, SITEOPS_API_TOKEN: "sot_notAValidToken0000000001" } });
      expect(r.code).toBe(3);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(
        /^error: The API token from SITEOPS_API_TOKEN was refused[^<>\n]* \[HTTP 401, request req_\w+\]\. Set SITEOPS_API_TOKEN to a valid API token, or unset it to use the saved login \(siteops auth status\)\.\n$/,
      );
    }
  });

  it("sites delete refuses without --yes off a terminal and deletes nothing; with --yes it deletes (empty 204 in minimal)", async () => {
    const site = await fx.so.sites.create({ name: "Doomed", url: "https://doomed.example.com" });
    const refused = await cli("sites", "delete", site.id);
    expect([refused.code, refused.stdout]).toEqual([2, ""]);
    expect(refused.stderr).toBe(`error: refusing to delete site Doomed (${site.id}) with all its snapshots without --yes (not on a terminal)\n`);
    expect((await fx.so.sites.get(site.id)).name).toBe("Doomed");

    const deleted = await cli("sites", "delete", "Doomed", "--yes");
    expect([deleted.code, deleted.stdout, deleted.stderr]).toEqual([0, "", `deleted site ${site.id}\n`]);
    await expect(fx.so.sites.get(site.id)).rejects.toMatchObject({ status: 404 });
    expect(await fx.so.sites.list().toArray()).toHaveLength(FLEET_SIZE);
  });

  it("sites delete on a terminal asks to type the name: a wrong answer deletes nothing, the name deletes", async () => {
    const site = await fx.so.sites.create({ name: "Doomed too", url: "https://doomed-too.example.com" });
    const wrong = await runInTerminal(["sites", "delete", site.id], env, { answers: [[/type "Doomed too"/, "Doomed\r"]] });
    expect(wrong.stdout).toContain("not confirmed: nothing was deleted");
    expect(wrong.code).toBe(2);
    expect((await fx.so.sites.get(site.id)).name).toBe("Doomed too");

    const typed = await runInTerminal(["sites", "delete", site.id], env, { answers: [[/type "Doomed too"/, "Doomed too\r"]] });
    expect(typed.stdout).toContain(`deleted site ${site.id}`);
    expect(typed.code).toBe(0);
    await expect(fx.so.sites.get(site.id)).rejects.toMatchObject({ status: 404 });
  });
});
