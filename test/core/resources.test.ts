// Every resource method against the emulator, as a user of the client sees it, on each HTTP stack.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuthenticationError, NotFoundError, PermissionDeniedError, SiteOps, UnprocessableEntityError, type Site } from "../../src/index.js";
import { MEMBER_TOKEN, OTHER_TOKEN, PASSWORD, startTestEmulator, TRANSPORTS, type TestEmulator } from "./helpers.js";

describe.each(TRANSPORTS)("over %s", (transport) => {
  let env: TestEmulator;
  let so: SiteOps;
  let blog: Site;

  beforeAll(async () => {
    env = await startTestEmulator({}, { transport });
    so = env.so;
    blog = (await so.sites.list().toArray()).find((s) => s.name === "Blog")!;
  });
  afterAll(async () => env.close());

  describe("sites", () => {
    it("lists, creates, gets, updates and deletes", async () => {
      const page = await so.sites.list();
      expect(page.data.map((s) => s.name)).toEqual(["Blog", "Shop"]);
      expect(page.totalCount).toBe(2);

      const created = await so.sites.create({ name: "Docs", url: "https://docs.acme.test", wp_version: "6.5", php_version: "8.2" });
      expect(created.id).toMatch(/^site_[A-Za-z0-9]{16,}$/);
      expect(created).toMatchObject({ name: "Docs", url: "https://docs.acme.test", wp_version: "6.5", php_version: "8.2" });
      expect(created.created_at).toMatch(/Z$/);

      expect(await so.sites.get(created.id)).toMatchObject({ id: created.id, name: "Docs" });
      const updated = await so.sites.update(created.id, { name: "Docs site" });
      expect(updated.name).toBe("Docs site");

      await so.sites.delete(created.id);
      await expect(so.sites.get(created.id)).rejects.toBeInstanceOf(NotFoundError);
    });

    it("reports validation errors with field errors", async () => {
      const err = await so.sites.create({ name: "", url: "not a url" }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UnprocessableEntityError);
      const e = err as UnprocessableEntityError;
      expect(e.status).toBe(422);
      expect(e.error).toMatch(/^Validation failed/);
      expect(Object.keys(e.errors ?? {})).toEqual(expect.arrayContaining(["name"]));
      expect(e.requestId).toBeTruthy();
    });

    it("hides another account's site as 404 Record not found", async () => {
      const other = env.client({ apiToken: OTHER_TOKEN });
      const [privateSite] = (await other.sites.list()).data;
      const err = await so.sites.get(privateSite.id).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(NotFoundError);
      expect((err as NotFoundError).error).toBe("Record not found");
    });

    it("refuses writes by a member with PermissionDeniedError", async () => {
      const member = env.client({ apiToken: MEMBER_TOKEN });
      await expect(member.sites.create({ name: "Nope", url: "https://nope.acme.test" })).rejects.toBeInstanceOf(PermissionDeniedError);
    });

    it("rejects a bad token with AuthenticationError and never shows the token", async () => {
      const bad = env.client({ apiToken: "sot_notARealToken000000000" });
      const err = (await bad.me().catch((e: unknown) => e)) as AuthenticationError;
      expect(err).toBeInstanceOf(AuthenticationError);
      expect(err.error).toBe("You need to sign in or sign up before continuing.");
      expect(err.message).not.toContain("sot_notARealToken");
    });
  });

  describe("health checks", () => {
    it("lists and gets the checks of a site", async () => {
      const checks = await so.healthChecks.list(blog.id);
      expect(checks.data.length).toBeGreaterThan(0);
      const check = await so.healthChecks.get(blog.id, checks.data[0].id);
      expect(check).toMatchObject({ id: checks.data[0].id, site_id: blog.id });
      expect(["passed", "warning", "failed"]).toContain(check.status);
      expect(Array.isArray(check.checks)).toBe(true);
    });
  });

  describe("snapshots", () => {
    it("creates, lists, gets, uploads and deletes", async () => {
      const snap = await so.snapshots.create(blog.id, { description: "before upgrade" });
      expect(snap.id).toMatch(/^snap_/);
      expect(snap).toMatchObject({ site_id: blog.id, description: "before upgrade", source: "service" });
      expect((await so.snapshots.list(blog.id)).data.map((s) => s.id)).toContain(snap.id);
      expect((await so.snapshots.get(blog.id, snap.id)).id).toBe(snap.id);

      const uploadable = await so.snapshots.create(blog.id, { upload: true });
      expect(uploadable.status).toBe("requested");
      const data = Buffer.from("snapshot bytes ".repeat(1000));
      const uploaded = await so.snapshots.upload(blog.id, uploadable.id, data);
      expect(uploaded.id).toBe(uploadable.id);
      expect(uploaded.size_bytes).toBe(data.length);

      await so.snapshots.delete(blog.id, snap.id);
      await expect(so.snapshots.get(blog.id, snap.id)).rejects.toBeInstanceOf(NotFoundError);
    });
  });

  describe("upgrade pipelines", () => {
    it("creates, lists, gets and approves", async () => {
      const site = await so.sites.create({ name: "Upgradable", url: "https://upgradable.acme.test", wp_version: "6.3" });
      const pipeline = await so.upgradePipelines.create(site.id, { to_wp_version: "6.4" });
      expect(pipeline.id).toMatch(/^upg_/);
      expect(pipeline).toMatchObject({ site_id: site.id, to_wp_version: "6.4", requires_approval: true });
      expect((await so.upgradePipelines.list(site.id)).data.map((p) => p.id)).toContain(pipeline.id);

      // One active pipeline per site.
      const second = await so.upgradePipelines.create(site.id, { to_wp_version: "6.4" }).catch((e: unknown) => e);
      expect(second).toBeInstanceOf(UnprocessableEntityError);

      let current = await so.upgradePipelines.get(site.id, pipeline.id);
      for (let i = 0; i < 50 && current.status !== "awaiting_approval"; i++) {
        await new Promise((r) => setTimeout(r, 50));
        current = await so.upgradePipelines.get(site.id, pipeline.id);
      }
      expect(current.status).toBe("awaiting_approval");
      const approved = await so.upgradePipelines.approve(site.id, pipeline.id, { comment: "ship it" });
      expect(approved.comment).toBe("ship it");
      expect(approved.approved_at).toBeTruthy();
      const again = await so.upgradePipelines.approve(site.id, pipeline.id).catch((e: unknown) => e);
      expect(again).toBeInstanceOf(UnprocessableEntityError);
      expect((again as UnprocessableEntityError).error).toBe("Pipeline is not awaiting approval");
    });
  });

  describe("vulnerability records", () => {
    it("lists, gets, ignores and reopens", async () => {
      const records = await so.vulnerabilityRecords.list(blog.id);
      expect(records.data.length).toBeGreaterThan(0);
      const open = records.data.find((r) => r.status === "open")!;
      expect(await so.vulnerabilityRecords.get(blog.id, open.id)).toMatchObject({ id: open.id, site_id: blog.id });
      const ignored = await so.vulnerabilityRecords.update(blog.id, open.id, {
        status: "ignored",
        dismissed_reason: "tolerable_risk",
        dismissed_comment: "behind a WAF",
      });
      expect(ignored).toMatchObject({ status: "ignored", dismissed_reason: "tolerable_risk", dismissed_comment: "behind a WAF" });
      expect((await so.vulnerabilityRecords.update(blog.id, open.id, { status: "open" })).status).toBe("open");
    });
  });

  describe("activity logs", () => {
    it("lists newest first, filtered by site and action", async () => {
      const site = await so.sites.create({ name: "Logged", url: "https://logged.acme.test" });
      await so.sites.update(site.id, { name: "Logged 2" });
      const logs = await so.activityLogs.list({ site_id: site.id });
      expect(logs.data.map((l) => l.action).slice(0, 2)).toEqual(["site.updated", "site.created"]);
      const created = await so.activityLogs.list({ site_id: site.id, action: "site.created" });
      expect(created.data).toHaveLength(1);
      expect(created.data[0]).toMatchObject({ subject_id: site.id, actor: { type: "api_token" } });
    });
  });

  describe("webhook endpoints", () => {
    it("creates (with its secret once), lists, gets, updates and deletes", async () => {
      const endpoint = await so.webhookEndpoints.create({ url: "https://hooks.acme.test/siteops", enabled_events: ["site.created"] });
      expect(endpoint.id).toMatch(/^we_/);
      expect(endpoint.secret).toMatch(/^whsec_/);
      const fetched = await so.webhookEndpoints.get(endpoint.id);
      expect(fetched.secret).toBeUndefined();
      expect((await so.webhookEndpoints.list()).data.map((e) => e.id)).toContain(endpoint.id);
      const updated = await so.webhookEndpoints.update(endpoint.id, { status: "disabled", description: "paused" });
      expect(updated).toMatchObject({ status: "disabled", description: "paused" });
      await so.webhookEndpoints.delete(endpoint.id);
      await expect(so.webhookEndpoints.get(endpoint.id)).rejects.toBeInstanceOf(NotFoundError);
    });
  });

  describe("me, accounts, users", () => {
    it("returns the current user, their accounts and the account's users", async () => {
      const me = await so.me();
      expect(me).toMatchObject({ email: "owner@acme.test", role: "owner" });
      expect(me.current_account_id).toMatch(/^acct_/);
      const accounts = await so.accounts.list();
      expect(accounts.data.map((a) => a.id)).toContain(me.current_account_id);
      expect((await so.accounts.get(me.current_account_id)).name).toBe("Acme");
      const users = await so.users.list();
      expect(users.data.map((u) => u.email).sort()).toEqual(["2fa@acme.test", "member@acme.test", "owner@acme.test"]);
      expect(users.data.find((u) => u.email === "2fa@acme.test")?.two_factor_enabled).toBe(true);
    });
  });

  describe("X-Account-Id", () => {
    it("a signed-in user (JWT) acts in another account they belong to, per client or per call", async () => {
      const member = await SiteOps.login({ baseUrl: env.url, email: "member@acme.test", password: PASSWORD, transport });
      const accounts = (await member.accounts.list()).data;
      expect(accounts.map((a) => a.name).sort()).toEqual(["Acme", "Other"]);
      const other = accounts.find((a) => a.name === "Other")!;
      expect((await member.sites.list({}, { accountId: other.id })).data.map((s) => s.name)).toEqual(["Private"]);
      const inOther = await SiteOps.login({ baseUrl: env.url, email: "member@acme.test", password: PASSWORD, accountId: other.id, transport });
      expect((await inOther.me()).current_account_id).toBe(other.id);
      await expect(so.sites.list({}, { accountId: other.id })).rejects.toBeInstanceOf(NotFoundError);
    });

    it("an API token acts only in the account it was made in", async () => {
      const member = env.client({ apiToken: MEMBER_TOKEN });
      const other = (await member.accounts.list()).data.find((a) => a.name === "Other")!;
      await expect(member.sites.list({}, { accountId: other.id })).rejects.toBeInstanceOf(PermissionDeniedError);
    });
  });

  describe("native-client auth endpoints", () => {
    it("POST /api/v1/auth creates an API token and DELETE /api/v1/auth revokes it", async () => {
      const anon = env.client({ apiToken: undefined });
      const created = await anon.auth.createApiToken({ email: "member@acme.test", password: PASSWORD, name: "phone" });
      expect(created.token).toMatch(/^sot_/);
      expect(created.user.email).toBe("member@acme.test");
      const phone = env.client({ apiToken: created.token });
      expect((await phone.me()).email).toBe("member@acme.test");
      await phone.auth.deleteApiToken();
      await expect(phone.me()).rejects.toBeInstanceOf(AuthenticationError);
    });
  });
});
