// Sites, a site's page, activity and webhooks in a real browser: approve a pipeline in the page and
// see the API report it approved (with the API's activity entry), a member can neither see nor post
// Approve, a running snapshot refreshes itself, deliveries show the signature the receiver verified.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SiteOps, verifyWebhook } from "../../src/index.js";
import { TOKENS, USERS, csrfOf, haveChromium, postForm, screenshot, signIn, useConsoleEnv } from "./helpers.js";

describe.runIf(haveChromium())("console sites, approvals, activity, webhooks (Chromium)", () => {
  const env = useConsoleEnv();
  let so: SiteOps;
  let siteId: string;
  let shopId: string;
  let receiver: Server;
  const received: { headers: Record<string, unknown>; verified: boolean }[] = [];

  beforeAll(async () => {
    so = new SiteOps({ baseUrl: env.emu.url, apiToken: TOKENS.owner, maxRetries: 0 });
    let secret = "";
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        let verified = true;
        try {
          verifyWebhook({ payload: Buffer.concat(chunks), headers: req.headers, secret });
        } catch {
          verified = false;
        }
        received.push({ headers: req.headers, verified });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const endpoint = await so.webhookEndpoints.create({
      url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`,
      enabled_events: ["upgrade_pipeline.created", "upgrade_pipeline.awaiting_approval", "upgrade_pipeline.approved", "upgrade_pipeline.succeeded"],
    });
    secret = endpoint.secret!;
    siteId = (await so.sites.create({ name: "Agency blog", url: "https://blog.agency.example", wp_version: "6.4", php_version: "8.1" })).id;
    // A few hours of health checks, so the site page's chart has a line to draw.
    const control = (route: string, body: object): Promise<Response> =>
      fetch(`${env.emu.url}/__emulator/${route}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    for (let i = 0; i < 8; i++) {
      await control("clock", { advance_seconds: 900 });
      await control("health_checks", { site_id: siteId, ...(i === 5 ? { status: "warning" } : {}) });
    }
    shopId = (await so.sites.create({ name: "Client shop", url: "https://shop.client.example", wp_version: "6.2", php_version: "8.0" })).id;
  });
  afterAll(async () => {
    receiver?.close();
  });

  it("approves a pipeline from the site page; the API reports it approved, with the API's activity entry", async () => {
    const pipeline = await so.upgradePipelines.create(siteId, { to_wp_version: "6.9", to_php_version: "8.3" });
    await expect.poll(async () => (await so.upgradePipelines.get(siteId, pipeline.id)).status).toBe("awaiting_approval");
    await so.snapshots.create(siteId, { description: "before the upgrade" });

    const page = await env.browser.newPage({ viewport: { width: 1100, height: 900 } });
    await signIn(page, env.emu, USERS.admin);
    await screenshot(page, "sites");
    await page.getByRole("link", { name: "Agency blog" }).click();
    await page.getByRole("button", { name: "Approve upgrade" }).waitFor();
    await screenshot(page, "site-awaiting-approval");
    await page.getByLabel("Comment (optional)").fill("Approved in the console");
    await page.getByRole("button", { name: "Approve upgrade" }).click();
    await expect(page.getByRole("status").textContent()).resolves.toBe(`Pipeline ${pipeline.id} approved.`);

    const approved = await so.upgradePipelines.get(siteId, pipeline.id);
    expect(approved).toMatchObject({ comment: "Approved in the console", approved_by: expect.stringMatching(/^usr_/) });
    expect(approved.approved_at).not.toBeNull();
    const [entry] = await so.activityLogs.list({ action: "upgrade_pipeline.approved" }).toArray();
    expect(entry).toMatchObject({ subject_id: pipeline.id, site_id: siteId, actor: { type: "user", name: "Adam Admin" } });
    expect(entry!.request_id).toMatch(/^req_/);
    await page.close();
  });

  it("shows a member no Approve button and refuses the member's form post (403)", async () => {
    const pipeline = await so.upgradePipelines.create(shopId, { to_php_version: "8.3" });
    await expect.poll(async () => (await so.upgradePipelines.get(shopId, pipeline.id)).status).toBe("awaiting_approval");
    const page = await env.browser.newPage();
    await signIn(page, env.emu, USERS.member);
    await page.goto(`${env.emu.url}/sites/${shopId}`);
    await expect(page.getByText("Waiting for an owner or admin to approve.").count()).resolves.toBeGreaterThan(0);
    expect(await page.getByRole("button", { name: "Approve upgrade" }).count()).toBe(0);
    const res = await postForm(page, `/sites/${shopId}/pipelines/${pipeline.id}/approve`, { _csrf: await csrfOf(page), comment: "sneaky" });
    expect(res.status).toBe(403);
    expect((await so.upgradePipelines.get(shopId, pipeline.id)).status).toBe("awaiting_approval");
    await page.close();
  });

  it("refreshes a site page by itself while a snapshot runs", async () => {
    const snap = await so.snapshots.create(siteId, { upload: true, description: "uploaded by the test" });
    const page = await env.browser.newPage();
    await signIn(page, env.emu, USERS.owner);
    await page.goto(`${env.emu.url}/sites/${siteId}`);
    const row = page.getByRole("row", { name: new RegExp(snap.id) });
    await expect(row.textContent()).resolves.toContain("requested");
    const marker = await page.evaluate(() => ((globalThis as unknown as { __loaded: number }).__loaded = 1));
    await so.snapshots.upload(siteId, snap.id, Buffer.from("wordpress files"));
    await page.getByRole("row", { name: new RegExp(`${snap.id}.*completed`) }).waitFor({ timeout: 15_000 });
    // The same document (no reload): the region was swapped in place.
    expect(await page.evaluate(() => (globalThis as unknown as { __loaded?: number }).__loaded)).toBe(marker);
    await page.close();
  });

  it("lists activity with the API's filters, and deliveries with the signature the receiver verified", async () => {
    const page = await env.browser.newPage({ viewport: { width: 1100, height: 900 } });
    await signIn(page, env.emu, USERS.owner);
    await page.goto(`${env.emu.url}/activity`);
    await page.getByLabel("Action").fill("upgrade_pipeline.*");
    await page.getByRole("button", { name: "Filter" }).click();
    const actions = await page.locator("tbody tr td:nth-child(2) code:first-child").allTextContents();
    expect(actions.length).toBeGreaterThan(0);
    expect(actions.every((a) => a.startsWith("upgrade_pipeline."))).toBe(true);
    const api = await so.activityLogs.list({ action: "upgrade_pipeline.*", per_page: 100 }).toArray();
    expect(actions).toEqual(api.map((e) => e.action));
    await screenshot(page, "activity");

    await expect.poll(() => received.length, { timeout: 15_000 }).toBeGreaterThan(2);
    await page.goto(`${env.emu.url}/webhooks`);
    const first = received[0]!;
    expect(first.verified).toBe(true);
    const row = page.getByRole("row", { name: new RegExp(String(first.headers["webhook-id"])) });
    await expect(row.textContent()).resolves.toContain("verifies");
    await expect(row.textContent()).resolves.toContain("204");
    await expect(row.locator("details code").textContent()).resolves.toContain(`webhook-signature: ${String(first.headers["webhook-signature"])}`);
    await screenshot(page, "webhooks");
    await page.close();
  });

  it("is readable at 320 px wide: no page scrolls sideways", async () => {
    const page = await env.browser.newPage({ viewport: { width: 320, height: 640 } });
    await signIn(page, env.emu, USERS.owner);
    for (const path of ["/sites", `/sites/${siteId}`, "/activity", "/webhooks", "/settings/api"]) {
      await page.goto(`${env.emu.url}${path}`);
      expect([
        path,
        await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth),
      ]).toEqual([path, 320]);
    }
    await screenshot(page, "site-320px");
    await page.close();
  });
});
