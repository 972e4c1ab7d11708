// Every `siteops` command's success path and the shape of its --json output, through bin/siteops.js against
// the emulator, as a script would run them (not a terminal: tab-separated lines, no colours).
import { describe, expect, it } from "vitest";
import { startTestEmulator } from "../core/helpers.js";
import { json, runCli, startCli, useTestBed } from "./helpers.js";
import { siteFields } from "../../wire/generated/fields.js";
import { shownNames } from "../support/wire-records.js";

const bed = useTestBed({ allowPrivateWebhookTargets: true }); // webhooks to a local (closed) port

const cli = (...args: string[]) => runCli(args, { env: bed.env });

describe("sites", () => {
  it("lists sites as tab-separated lines, a JSON array, selected fields, or JSON lines", async () => {
    const tsv = await cli("sites", "list");
    expect(tsv.code).toBe(0);
    const lines = tsv.stdout.trim().split("\n");
    expect(lines[0]!.split("\t")).toEqual([expect.stringMatching(/^site_/), "Blog", expect.any(String), "6.4", "8.1", "https://blog.acme.test"]);

    const all = json<Record<string, unknown>[]>(await cli("sites", "list", "--json"));
    expect(all.map((s) => s.name)).toEqual(expect.arrayContaining(["Blog", "Shop"]));
    expect(Object.keys(all[0]!).sort()).toEqual(shownNames(siteFields).sort());

    expect(json(await cli("sites", "list", "--json=id,name"))).toEqual(all.map((s) => ({ id: s.id, name: s.name })));
    const jsonl = (await cli("sites", "list", "--jsonl")).stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { id: string });
    expect(jsonl.map((s) => s.id)).toEqual(all.map((s) => s.id));
    expect(json(await cli("sites", "list", "--json", "--limit", "1"))).toHaveLength(1);
  });

  it("creates, shows (by name or id), updates and deletes a site", async () => {
    const created = json<{ id: string; name: string; wp_version: string }>(
      await cli("sites", "create", "--name", "Docs", "--url", "https://docs.acme.test", "--wp", "6.5", "--php", "8.2", "--json"),
    );
    expect(created).toMatchObject({ id: expect.stringMatching(/^site_/), name: "Docs", wp_version: "6.5", php_version: "8.2" });
    expect(json(await cli("sites", "get", "Docs", "--json"))).toEqual(created);
    const shown = await cli("sites", "get", created.id);
    expect(shown.stdout).toContain("name\tDocs");
    const updated = json<{ name: string }>(await cli("sites", "update", "Docs", "--name", "Handbook", "--json"));
    expect(updated.name).toBe("Handbook");
    const refused = await cli("sites", "delete", created.id);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/refusing to delete site Handbook .* without --yes/);
    const deleted = await cli("sites", "delete", created.id, "--yes");
    expect(deleted.code).toBe(0);
    expect((await cli("sites", "get", created.id)).code).toBe(2);
  });

  it("prints a GitHub Actions matrix of N shards, with each shard's site ids on request", async () => {
    const matrix = json<{ include: { shard: string }[] }>(await cli("sites", "matrix", "--shards", "4"));
    expect(matrix).toEqual({ include: [{ shard: "1/4" }, { shard: "2/4" }, { shard: "3/4" }, { shard: "4/4" }] });
    const withIds = json<{ include: { shard: string; site_ids: string[] }[] }>(await cli("sites", "matrix", "--shards", "3", "--with-ids"));
    const ids = json<{ id: string }[]>(await cli("sites", "list", "--json=id")).map((s) => s.id);
    expect(withIds.include.flatMap((e) => e.site_ids).sort()).toEqual([...ids].sort());
    for (const entry of withIds.include) {
      const listed = json<{ id: string }[]>(await cli("sites", "list", "--shard", entry.shard, "--json=id")).map((s) => s.id);
      expect(listed.sort()).toEqual([...entry.site_ids].sort());
    }
    const tooMany = await cli("sites", "matrix", "--shards", "300");
    expect(tooMany.code).toBe(2);
    expect(tooMany.stderr).toMatch(/GitHub Actions' limit of 256 jobs per matrix/);
  });
});

describe("snapshots", () => {
  it("creates a snapshot of one site, lists, shows and deletes it", async () => {
    const created = await cli("snapshot", "create", "--site", "Blog", "--description", "before deploy", "--json");
    expect(created.code).toBe(0);
    const [record] = json<{ site: { name: string }; outcome: string; snapshot: { id: string; status: string; description: string }; error: null }[]>(created);
    expect(record).toMatchObject({
      site: { name: "Blog" },
      outcome: "completed",
      snapshot: { status: "completed", description: "before deploy" },
      error: null,
    });
    const id = record!.snapshot.id;
    expect(created.stderr).toMatch(new RegExp(`Blog: snapshot ${id} completed`));

    const listed = json<{ id: string; site_id: string }[]>(await cli("snapshots", "list", "--site", "Blog", "--json"));
    expect(listed[0]!.id).toBe(id); // newest first
    expect(json<{ id: string }>(await cli("snapshots", "get", id, "--site", "Blog", "--json")).id).toBe(id);
    // --json=FIELDS takes every field --json prints (error was left out of the list once).
    expect(json(await cli("snapshots", "get", id, "--site", "Blog", "--json=id,error"))).toEqual({ id, error: null });
    expect((await cli("snapshots", "delete", id, "--site", "Blog", "--yes")).code).toBe(0);
    expect(json<{ id: string }[]>(await cli("snapshots", "list", "--site", "Blog", "--json")).map((s) => s.id)).not.toContain(id);
  });

  it("--no-wait returns once the snapshot is requested", async () => {
    const slow = await startTestEmulator({ stepSeconds: 3600 });
    try {
      const r = await runCli(["snapshot", "create", "--site", "Shop", "--no-wait", "--json=outcome,snapshot"], {
        env: { ...bed.env, SITEOPS_BASE_URL: slow.url },
      });
      expect(r.code).toBe(0);
      expect(json(r)).toEqual([{ outcome: "requested", snapshot: expect.objectContaining({ status: "requested" }) }]);
    } finally {
      await slow.close();
    }
  });
});

describe("upgrades and pipelines", () => {
  it("opens a pipeline, waits for approval, approves it by id alone, and shows its status", async () => {
    const opened = await cli("upgrade", "open", "--site", "Blog", "--wp", "6.5", "--json");
    expect(opened.code).toBe(0);
    const pipeline = json<{ id: string; status: string; to_wp_version: string; steps: { name: string; status: string }[] }>(opened);
    expect(pipeline).toMatchObject({ status: "awaiting_approval", to_wp_version: "6.5" });
    expect(opened.stderr).toContain(`siteops upgrade approve ${pipeline.id}`);

    // No --site: the pipeline's site is found through the activity log.
    const approved = await cli("upgrade", "approve", pipeline.id, "--comment", "ship it", "--json");
    expect(approved.code).toBe(0);
    expect(json(approved)).toMatchObject({ id: pipeline.id, status: "succeeded", comment: "ship it" });

    const status = await cli("upgrade", "status", pipeline.id, "--watch");
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/status\tsucceeded/);
    expect(status.stdout).toMatch(/steps\tsnapshot:passed preflight:passed apply:passed verify:passed/);
    expect(json<{ id: string }[]>(await cli("pipelines", "list", "--site", "Blog", "--json")).map((p) => p.id)).toContain(pipeline.id);
    expect(json(await cli("pipelines", "get", pipeline.id, "--site", "Blog", "--json=id,status"))).toEqual({ id: pipeline.id, status: "succeeded" });
  });

  it("approves a site's one waiting pipeline by --site alone, saying it succeeded", async () => {
    await bed.emu.so.sites.create({ name: "Waiting", url: "https://waiting.acme.test", wp_version: "6.3" });
    const none = await cli("upgrade", "approve", "--site", "Waiting");
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^error: site Waiting has no upgrade pipeline awaiting approval\n$/);
    const opened = json<{ id: string; status: string }>(await cli("upgrade", "open", "--site", "Waiting", "--wp", "6.4", "--json"));
    expect(opened.status).toBe("awaiting_approval");
    const approved = await cli("upgrade", "approve", "--site", "Waiting", "--json=id,status");
    expect(approved.code, approved.stderr).toBe(0);
    expect(json(approved)).toEqual({ id: opened.id, status: "succeeded" });
    expect(approved.stderr).toContain(`pipeline ${opened.id} succeeded`);
    expect(approved.stderr).not.toMatch(/ is (succeeded|failed|rolled_back)/);
  });

  it("says which version the service does not offer", async () => {
    const r = await cli("upgrade", "open", "--site", "Blog", "--wp", "7.0");
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^error: the service does not offer WordPress 7\.0 \(to_wp_version is not included in the list; its answer names no versions\) \[HTTP 422, request req_\w+\]\n$/,
    );
  });

  it("runs an upgrade without approval to the end", async () => {
    await bed.emu.so.sites.create({ name: "Legacy", url: "https://legacy.acme.test", wp_version: "6.3" });
    const r = await cli("upgrade", "open", "--site", "Legacy", "--wp", "6.4", "--no-require-approval", "--json=status,to_wp_version");
    expect(r.code).toBe(0);
    expect(json(r)).toEqual({ status: "succeeded", to_wp_version: "6.4" });
  });
});

describe("vulnerabilities", () => {
  it("lists a site's records and dismisses one with a reason", async () => {
    const old = await bed.emu.so.sites.create({ name: "Old", url: "https://old.acme.test", wp_version: "6.1" });
    const records = json<{ id: string; status: string; severity: string }[]>(await cli("vulns", "list", "--site", "Old", "--status", "open", "--json"));
    expect(records.length).toBeGreaterThan(0);
    const updated = await cli(
      "vulns",
      "update",
      records[0]!.id,
      "--site",
      "Old",
      "--status",
      "ignored",
      "--reason",
      "not_used",
      "--comment",
      "plugin off",
      "--json",
    );
    expect(json(updated)).toMatchObject({ id: records[0]!.id, status: "ignored", dismissed_reason: "not_used", dismissed_comment: "plugin off" });
    const fleet = json<{ site_id: string }[]>(await cli("vulns", "list", "--all", "--status", "ignored", "--json"));
    expect(fleet.map((r) => r.site_id)).toContain(old.id);
  });
});

describe("activity, webhooks, me, accounts, users", () => {
  it("shows the activity log filtered by site and action", async () => {
    const entries = json<{ action: string; site_id: string }[]>(await cli("activity", "--site", "Blog", "--action", "snapshot.*", "--json"));
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((e) => e.action.startsWith("snapshot."))).toBe(true);
  });

  it("--follow prints new entries as they happen until interrupted (exit 130)", async () => {
    const run = startCli(["activity", "--follow", "--interval", "300ms", "--jsonl", "--action", "webhook_endpoint.*"], { env: bed.env });
    await new Promise((r) => setTimeout(r, 1000));
    await bed.emu.so.webhookEndpoints.create({ url: "http://127.0.0.1:9/followed" });
    await run.waitFor(/webhook_endpoint\.created/, "stdout");
    run.child.kill("SIGINT");
    const result = await run.done;
    expect(result.code).toBe(130);
    const lines = result.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { action: string });
    expect(lines.at(-1)!.action).toBe("webhook_endpoint.created");
  });

  it("creates (showing the secret once), lists and deletes webhook endpoints", async () => {
    const created = json<{ id: string; secret: string; enabled_events: string[] }>(
      await cli("webhooks", "create", "--url", "http://127.0.0.1:9/hook", "--event", "snapshot.completed", "--event", "snapshot.failed", "--json"),
    );
    expect(created).toMatchObject({
      id: expect.stringMatching(/^we_/),
      secret: expect.stringMatching(/^whsec_/),
      enabled_events: ["snapshot.completed", "snapshot.failed"],
    });
    const listed = json<{ id: string; secret?: string }[]>(await cli("webhooks", "list", "--json"));
    expect(listed.find((w) => w.id === created.id)?.secret).toBeUndefined();
    expect((await cli("webhooks", "delete", created.id, "--yes")).code).toBe(0);
  });

  it("shows the user, the accounts and the account's users", async () => {
    expect(json(await cli("me", "--json"))).toMatchObject({ email: "owner@acme.test", role: "owner", current_account_id: expect.stringMatching(/^acct_/) });
    expect(json<{ name: string }[]>(await cli("accounts", "list", "--json")).map((a) => a.name)).toEqual(["Acme"]);
    const users = json<{ email: string; role: string }[]>(await cli("users", "list", "--json"));
    expect(users.map((u) => u.email)).toEqual(expect.arrayContaining(["owner@acme.test", "member@acme.test"]));
  });
});

describe("help and completion", () => {
  it("prints help for the CLI, a group and a command", async () => {
    const top = await runCli(["--help"], { env: bed.env });
    expect(top.code).toBe(0);
    expect(top.stdout).toMatch(/snapshots\s+create \(one site or the fleet\)/);
    expect((await runCli(["snapshot", "--help"], { env: bed.env })).stdout).toMatch(/prune\s+delete old snapshots/);
    const create = await runCli(["snapshot", "create", "--help"], { env: bed.env });
    expect(create.stdout).toMatch(/--upload FILE\|-/);
    expect(create.stdout).toMatch(/75 another run holds the lock/);
    expect((await runCli([], { env: bed.env })).code).toBe(2);
  });
});
