// Calls whose answer is lost after the service carried them out: the emulator's "after" faults let the
// handler commit, then reset the connection or replace the answer with a proxy's 502/503 ("drop_body": the
// real head, then a reset mid-body). Whatever the fault, the final state is exact (nothing done twice, no
// change undone) and the caller is told the truth, on each HTTP stack.
import { createHash, randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AuthenticationError, JwtAuth, NotFoundError, SiteOps, UnprocessableEntityError, type RequestLogEvent, type Site } from "../../src/index.js";
import { removeDir, tempDir } from "../support/temp.js";
import { hookedProxy, OTP_SECRET, PASSWORD, startTestEmulator, totp, TRANSPORTS, type TestEmulator } from "./helpers.js";

describe.each(TRANSPORTS)("over %s", (transport) => {
  let env: TestEmulator;

  beforeAll(async () => {
    env = await startTestEmulator({}, { transport });
  });
  afterEach(async () => {
    await env.control("DELETE", "faults");
    env.events.length = 0;
  });
  afterAll(async () => env.close());

  type Rule = Record<string, unknown>;
  const AFTER: [string, Rule][] = [
    ["a reset after the commit", { phase: "after", reset_connection: true }],
    ["a proxy's 502 after the commit", { phase: "after", status: 502 }],
    ["a proxy's 503 after the commit", { phase: "after", status: 503, retry_after: 0 }],
  ];
  /** One fault, for the first matching request. */
  const fault = (method: string, path: string, rule: Rule) => env.control("POST", "faults", { rules: [{ method, path, count: 1, ...rule }] });
  const RESET_AFTER = { phase: "after", reset_connection: true };
  const settled = () => env.events.filter((e): e is Extract<RequestLogEvent, { kind: "settled" }> => e.kind === "settled");
  let n = 0;
  const newSite = (so: SiteOps = env.so): Promise<Site> =>
    so.sites.create({ name: `Uncertain ${++n}`, url: `https://uncertain-${n}.acme.test`, wp_version: "6.3" });
  const sitesNamed = async (name: string) => (await env.so.sites.list({ per_page: 100 }).toArray()).filter((s) => s.name === name);

  describe("DELETE whose answer is lost", () => {
    it.each(AFTER)("resolves as deleted after %s, and says so in the debug log", async (_name, rule) => {
      const site = await newSite();
      await fault("DELETE", "/api/v1/sites/*", rule);
      await expect(env.so.sites.delete(site.id)).resolves.toBeUndefined();
      await expect(env.so.sites.get(site.id)).rejects.toBeInstanceOf(NotFoundError);
      expect(settled()).toEqual([
        expect.objectContaining({
          method: "DELETE",
          status: 404,
          note: "deleted by an earlier attempt",
          uncertain: expect.stringMatching(/connection lost|50[23] response/),
        }),
      ]);
    });

    it("snapshots and webhook endpoints too", async () => {
      const site = await newSite();
      const snap = await env.so.snapshots.create(site.id, { upload: true });
      const hook = await env.so.webhookEndpoints.create({ url: "https://hooks.acme.test/uncertain" });
      await fault("DELETE", "/api/v1/sites/*/snapshots/*", RESET_AFTER);
      await fault("DELETE", "/api/v1/webhook_endpoints/*", RESET_AFTER);
      await env.so.snapshots.delete(site.id, snap.id);
      await env.so.webhookEndpoints.delete(hook.id);
      await expect(env.so.snapshots.get(site.id, snap.id)).rejects.toBeInstanceOf(NotFoundError);
      await expect(env.so.webhookEndpoints.get(hook.id)).rejects.toBeInstanceOf(NotFoundError);
      expect(settled()).toHaveLength(2);
    });

    it("is still a NotFoundError when no attempt was uncertain", async () => {
      await expect(env.so.sites.delete("site_0000000000000000")).rejects.toBeInstanceOf(NotFoundError);
      await fault("DELETE", "/api/v1/sites/*", { status: 503, retry_after: 0 }); // before: never carried out
      const site = await newSite();
      await env.so.sites.delete(site.id);
      expect(settled()).toEqual([]);
    });
  });

  describe("creates whose answer is lost", () => {
    it.each([...AFTER, ["a body cut off after the head", { phase: "drop_body" }] as [string, Rule]])(
      "create exactly one site after %s, and return it",
      async (_name, rule) => {
        await fault("POST", "/api/v1/sites", rule);
        const site = await newSite();
        expect((await sitesNamed(site.name)).map((s) => s.id)).toEqual([site.id]);
      },
    );

    it("create exactly one snapshot and one webhook endpoint, whose secret still reaches the caller", async () => {
      const site = await newSite();
      await fault("POST", "/api/v1/sites/*/snapshots", RESET_AFTER);
      await fault("POST", "/api/v1/webhook_endpoints", RESET_AFTER);
      const snap = await env.so.snapshots.create(site.id, { description: "once" });
      const hook = await env.so.webhookEndpoints.create({ url: "https://hooks.acme.test/once" });
      expect((await env.so.snapshots.list(site.id).toArray()).filter((s) => s.description === "once").map((s) => s.id)).toEqual([snap.id]);
      expect((await env.so.webhookEndpoints.list().toArray()).filter((h) => h.url === hook.url).map((h) => h.id)).toEqual([hook.id]);
      expect(hook.secret).toMatch(/^whsec_/);
    });
  });

  describe("approve whose answer is lost", () => {
    async function awaitingApproval(): Promise<{ site: Site; pipelineId: string }> {
      const site = await newSite();
      const pipeline = await env.so.operations.openUpgrade(site.id, { to_wp_version: "6.4" }, { pollInterval: 20 });
      expect(pipeline.status).toBe("awaiting_approval");
      return { site, pipelineId: pipeline.id };
    }

    it("returns the pipeline the first attempt approved (the service replays the key)", async () => {
      const { site, pipelineId } = await awaitingApproval();
      await fault("POST", "/api/v1/sites/*/upgrade_pipelines/*/approve", RESET_AFTER);
      const approved = await env.so.upgradePipelines.approve(site.id, pipelineId, { comment: "go" });
      expect(approved).toMatchObject({ id: pipelineId, comment: "go" });
      expect(approved.approved_by).toBe((await env.so.me()).id);
    });

    it("through a proxy that drops Idempotency-Key: 'not awaiting approval' resolves with the pipeline this caller approved", async () => {
      const proxy = await hookedProxy(env.url, (_n, request) => {
        delete request.headers["idempotency-key"];
      });
      const so = env.client({ baseUrl: proxy.url, logger: (e) => env.events.push(e) });
      try {
        for (const [, rule] of AFTER) {
          const { site, pipelineId: id } = await awaitingApproval();
          await fault("POST", "/api/v1/sites/*/upgrade_pipelines/*/approve", rule);
          const approved = await so.upgradePipelines.approve(site.id, id, { comment: "ship it" });
          expect(approved).toMatchObject({ id, comment: "ship it", approved_by: (await so.me()).id });
          expect(settled().at(-1)).toMatchObject({ status: 422, note: "approved by an earlier attempt" });
        }
      } finally {
        await proxy.close();
      }
    });

    it("still fails when someone else approved it after this caller's attempt was lost", async () => {
      const { site, pipelineId } = await awaitingApproval();
      const admin = await SiteOps.login({ baseUrl: env.url, email: "2fa@acme.test", password: PASSWORD, otp: totp(OTP_SECRET), transport });
      const proxy = await hookedProxy(env.url, async (n) => {
        if (n === 1) await admin.upgradePipelines.approve(site.id, pipelineId, { comment: "mine" }); // between the attempts
      });
      const so = env.client({ baseUrl: proxy.url });
      try {
        await fault("POST", "/api/v1/sites/*/upgrade_pipelines/*/approve", { status: 503, retry_after: 0 }); // outcome unknown to the client
        const err = await so.upgradePipelines.approve(site.id, pipelineId, { comment: "ship it" }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(UnprocessableEntityError);
        expect((err as UnprocessableEntityError).error).toBe("Pipeline is not awaiting approval");
        expect((await env.so.upgradePipelines.get(site.id, pipelineId)).comment).toBe("mine");
      } finally {
        await admin.close();
        await proxy.close();
      }
    });
  });

  describe("updates whose answer is lost", () => {
    it.each(AFTER)("a retried PATCH after %s does not undo a change made in between", async (_name, rule) => {
      const site = await newSite();
      const other = env.client();
      const proxy = await hookedProxy(env.url, async (i) => {
        if (i === 1) await other.sites.update(site.id, { name: `${site.name} (theirs)` }); // between the two attempts
      });
      const so = env.client({ baseUrl: proxy.url });
      try {
        await fault("PATCH", "/api/v1/sites/*", rule);
        const mine = await so.sites.update(site.id, { name: `${site.name} (mine)` });
        expect(mine.name).toBe(`${site.name} (mine)`); // what this call did
        expect((await env.so.sites.get(site.id)).name).toBe(`${site.name} (theirs)`); // and the later change stands
      } finally {
        await proxy.close();
      }
    });

    it("a vulnerability record and a webhook endpoint update once", async () => {
      const site = await newSite();
      const [record] = (await env.so.vulnerabilityRecords.list(site.id)).data;
      const hook = await env.so.webhookEndpoints.create({ url: "https://hooks.acme.test/patch" });
      await fault("PATCH", "/api/v1/sites/*/vulnerability_records/*", RESET_AFTER);
      await fault("PATCH", "/api/v1/webhook_endpoints/*", RESET_AFTER);
      const ignored = await env.so.vulnerabilityRecords.update(site.id, record!.id, { status: "ignored", dismissed_reason: "not_used" });
      const disabled = await env.so.webhookEndpoints.update(hook.id, { status: "disabled" });
      expect(ignored.status).toBe("ignored");
      expect(disabled.status).toBe("disabled");
      const updates = await env.so.activityLogs.list({ action: "vulnerability_record.updated", site_id: site.id }).toArray();
      expect(updates).toHaveLength(1);
    });
  });

  describe("uploads whose answer is lost", () => {
    const sha256hex = (data: Buffer) => createHash("sha256").update(data).digest("hex");

    it.each([...AFTER, ["a body cut off after the head", { phase: "drop_body" }] as [string, Rule]])(
      "a whole upload completes once with the right checksum after %s",
      async (_name, rule) => {
        const site = await newSite();
        const snap = await env.so.snapshots.create(site.id, { upload: true });
        const data = randomBytes(200_000);
        await fault("PUT", "/api/v1/sites/*/snapshots/*/upload", rule);
        const done = await env.so.snapshots.upload(site.id, snap.id, data);
        expect(done).toMatchObject({ id: snap.id, status: "completed", size_bytes: data.length, checksum_sha256: sha256hex(data) });
      },
    );

    it.each([
      ["a middle chunk", (range: string, total: number) => range.startsWith("bytes 262144-") && !range.endsWith(`-${total - 1}/${total}`)],
      ["the last chunk", (range: string, total: number) => range.endsWith(`-${total - 1}/${total}`)],
    ] as const)("a resumable upload completes with the right checksum when %s is answered and lost", async (_name, isTarget) => {
      const site = await newSite();
      const snap = await env.so.snapshots.create(site.id, { upload: true });
      const data = randomBytes(1024 * 1024 + 4321);
      const dir = tempDir("uncertain");
      const file = path.join(dir, "data.bin");
      writeFileSync(file, data);
      for (const rule of [{ phase: "after", reset_connection: true }, { phase: "after", status: 502 }, { phase: "drop_body" }]) {
        let armed = false;
        const proxy = await hookedProxy(env.url, async (_i, request) => {
          const range = request.headers["content-range"] ?? "";
          if (!armed && isTarget(range, data.length)) {
            armed = true;
            await fault("PUT", "/api/v1/sites/*/snapshots/*/upload", rule);
          }
        });
        const so = env.client({ baseUrl: proxy.url });
        const fresh = rule.phase === "after" && rule.reset_connection ? snap : await env.so.snapshots.create(site.id, { upload: true });
        try {
          const done = await so.snapshots.upload(site.id, fresh.id, file, { resumableThreshold: 512 * 1024, chunkSize: 256 * 1024 });
          expect(armed).toBe(true);
          expect(done).toMatchObject({ id: fresh.id, status: "completed", size_bytes: data.length, checksum_sha256: sha256hex(data) });
        } finally {
          await proxy.close();
          await env.control("DELETE", "faults");
        }
      }
      removeDir(dir);
    });
  });

  describe("logout whose answer is lost", () => {
    it("an API token revoked by the first attempt: logout resolves, the token is dead", async () => {
      const native = await SiteOps.login({
        baseUrl: env.url,
        email: "member@acme.test",
        password: PASSWORD,
        tokenType: "api_token",
        logger: (e) => env.events.push(e),
      });
      const token = (native.credentials as unknown as { authorization(): string }).authorization().replace(/^token /, "");
      await fault("DELETE", "/api/v1/auth", RESET_AFTER);
      await expect(native.logout()).resolves.toBeUndefined();
      await expect(env.client({ apiToken: token }).me()).rejects.toBeInstanceOf(AuthenticationError);
      expect(settled()).toEqual([expect.objectContaining({ method: "DELETE", status: 401, note: "revoked by an earlier attempt" })]);
    });

    it("a JWT pair revoked by the first attempt: logout resolves, the refresh token is dead", async () => {
      const tokens = await env.so.auth.createJwt({ email: "owner@acme.test", password: PASSWORD });
      const jwt = env.client({ auth: new JwtAuth(tokens), logger: (e) => env.events.push(e) });
      await jwt.me();
      await fault("POST", "/api/v1/jwt/revoke", { phase: "after", status: 502 });
      await expect(jwt.logout()).resolves.toBeUndefined();
      await expect(env.so.auth.refreshJwt(tokens.refresh_token)).rejects.toBeInstanceOf(AuthenticationError);
    });
  });

  describe("logins whose answer is lost", () => {
    it("a refresh answered and lost does not end the session (the rotated token is not taken for stolen)", async () => {
      const tokens = await env.so.auth.createJwt({ email: "owner@acme.test", password: PASSWORD });
      await fault("POST", "/api/v1/jwt/refresh", RESET_AFTER);
      const renewed = await env.so.auth.refreshJwt(tokens.refresh_token);
      expect((await env.client({ auth: new JwtAuth(renewed) }).me()).email).toBe("owner@acme.test");
      await expect(env.so.auth.refreshJwt(renewed.refresh_token)).resolves.toMatchObject({ token_type: "Bearer" });
    });

    it("a login with a one-time code answered and lost (the code cannot be used twice)", async () => {
      await fault("POST", "/api/v1/jwt", { phase: "after", status: 502 });
      const code = totp(OTP_SECRET, Date.now() + 30_000); // not the step the approval test used
      const so = await SiteOps.login({ baseUrl: env.url, email: "2fa@acme.test", password: PASSWORD, otp: code, transport });
      try {
        expect((await so.me()).email).toBe("2fa@acme.test");
      } finally {
        await so.close();
      }
    });
  });
});
