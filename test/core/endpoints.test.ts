// Every endpoint of the emulator's OpenAPI document is reached by a client method: a tour of the whole
// surface, with the paths the client sent matched against the document's path templates.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JwtAuth, SiteOps, type RequestLogEvent } from "../../src/index.js";
import { PASSWORD, startTestEmulator, type TestEmulator } from "./helpers.js";

let env: TestEmulator;
let templates: { method: string; path: string; re: RegExp }[];

beforeAll(async () => {
  env = await startTestEmulator();
  const doc = (await (await fetch(`${env.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
  templates = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.keys(ops)
      .filter((key) => ["get", "put", "post", "delete", "patch"].includes(key))
      .map((method) => ({
        method: method.toUpperCase(),
        path,
        re: new RegExp(`^${path.replace(/\{[^}]+\}/g, "[^/?]+")}(\\?.*)?$`),
      })),
  );
});
afterAll(async () => env.close());

describe("endpoint coverage", () => {
  it("reaches every endpoint of /openapi.json through the client's methods", async () => {
    const so = env.so;
    const site = await so.sites.create({ name: "Tour", url: "https://tour.acme.test", wp_version: "6.3" });
    await so.sites.list();
    await so.sites.get(site.id);
    await so.sites.update(site.id, { name: "Tour 2" });
    const [check] = (await so.healthChecks.list(site.id)).data;
    await so.healthChecks.get(site.id, check.id);
    const snap = await so.snapshots.create(site.id, { upload: true });
    await so.snapshots.upload(site.id, snap.id, Buffer.from("tour"));
    await so.snapshots.list(site.id);
    await so.snapshots.get(site.id, snap.id);
    const pipeline = await so.operations.openUpgrade(site.id, { to_wp_version: "6.4" }, { pollInterval: 20 });
    await so.upgradePipelines.list(site.id);
    await so.upgradePipelines.approve(site.id, pipeline.id);
    await so.snapshots.delete(site.id, (await so.snapshots.create(site.id, { upload: true })).id);
    const [record] = (await so.vulnerabilityRecords.list(site.id)).data;
    await so.vulnerabilityRecords.get(site.id, record.id);
    await so.vulnerabilityRecords.update(site.id, record.id, { status: "ignored", dismissed_reason: "not_used" });
    await so.activityLogs.list({ site_id: site.id });
    const hook = await so.webhookEndpoints.create({ url: "https://hooks.acme.test/tour" });
    await so.webhookEndpoints.list();
    await so.webhookEndpoints.get(hook.id);
    await so.webhookEndpoints.update(hook.id, { description: "tour" });
    await so.webhookEndpoints.delete(hook.id);
    const me = await so.me();
    await so.accounts.list();
    await so.accounts.get(me.current_account_id);
    await so.users.list();
    await so.sites.delete(site.id);

    // Authentication endpoints, through login/refresh/logout of a second client logging to the same list.
    const log = (e: RequestLogEvent) => env.events.push(e);
    const tokens = await env.client({ logger: log }).auth.createJwt({ email: "owner@acme.test", password: PASSWORD });
    const jwt = env.client({ auth: new JwtAuth(tokens), logger: log });
    await jwt.auth.refreshJwt(tokens.refresh_token).then((t) => jwt.auth.revokeJwt(t.refresh_token));
    const native = await SiteOps.login({ baseUrl: env.url, email: "member@acme.test", password: PASSWORD, tokenType: "api_token", logger: log });
    await native.logout();

    const reached = new Set<string>();
    for (const e of env.events) {
      if (e.kind !== "response" || e.status === undefined) continue;
      const t = templates.find((t) => t.method === e.method && t.re.test(e.path));
      if (t) reached.add(`${t.method} ${t.path}`);
    }
    const all = templates.map((t) => `${t.method} ${t.path}`).sort();
    expect(all.length).toBeGreaterThan(0);
    expect([...reached].sort()).toEqual(all);
  });
});
