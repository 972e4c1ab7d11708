// Every route of the API, the control API, webhook deliveries and the web console with the `minimal` profile's
// 6-character ids (emulator/profile.ts): nothing in the emulator may assume an id of 16 or more characters.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { PASSWORD, TOKENS, USERS, api, startTestEmulator, waitFor } from "./helpers.js";
import { bytes, digestHeader, octet } from "./upload-bytes.js";

let emu: RunningEmulator;
let receiver: Server;
const received: IncomingHttpHeaders[] = [];
const owner = { token: TOKENS.owner };
const SHORT = (prefix: string): RegExp => new RegExp(`^${prefix}_[A-Za-z0-9]{6}$`);

beforeAll(async () => {
  receiver = createServer((req, res) => {
    received.push(req.headers);
    req.resume();
    res.end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  emu = await startTestEmulator({ profile: "minimal", allowPrivateWebhookTargets: true });
});
afterAll(async () => {
  await emu.close();
  await new Promise((resolve) => receiver.close(resolve));
});

/** Status of one call, with what was called, so a failure names the route. */
async function ok(method: string, path: string, opts: Parameters<typeof api>[3] = owner): Promise<any> {
  const res = await api(emu, method, path, opts);
  expect([method, path, res.status < 300 ? "ok" : `${res.status} ${res.text}`]).toEqual([method, path, "ok"]);
  return res.body;
}

describe("the API with short ids", () => {
  it("serves every route on records with 6-character ids", async () => {
    const site = await ok("POST", "/sites", { ...owner, body: { name: "Short", url: "https://short-routes.example.com", wp_version: "6.2" } });
    expect(site.id).toMatch(SHORT("site"));
    await ok("GET", `/sites/${site.id}`);
    await ok("PATCH", `/sites/${site.id}`, { ...owner, body: { name: "Short ids" } });
    const [check] = await ok("GET", `/sites/${site.id}/health_checks`);
    expect((await ok("GET", `/sites/${site.id}/health_checks/${check.id}`)).id).toMatch(SHORT("hc"));
    await ok("POST", "/__emulator/health_checks", { body: { site_id: site.id } });

    const upload = await ok("POST", `/sites/${site.id}/snapshots`, { ...owner, body: { upload: true } });
    const data = bytes(4096);
    const put = await ok("PUT", `/sites/${site.id}/snapshots/${upload.id}/upload`, {
      ...owner,
      raw: data,
      headers: { ...octet, "content-digest": digestHeader(data) },
    });
    expect(put).toMatchObject({ id: upload.id, status: "completed", size_bytes: 4096 });
    await ok("GET", `/sites/${site.id}/snapshots/${upload.id}`);
    expect((await ok("GET", `/sites/${site.id}/snapshots`)).map((s: { id: string }) => s.id)).toContain(upload.id);

    const [record] = await ok("GET", `/sites/${site.id}/vulnerability_records`);
    expect(record.id).toMatch(SHORT("vuln"));
    await ok("GET", `/sites/${site.id}/vulnerability_records/${record.id}`);
    await ok("PATCH", `/sites/${site.id}/vulnerability_records/${record.id}`, { ...owner, body: { status: "ignored", dismissed_reason: "not_used" } });

    const pipeline = await ok("POST", `/sites/${site.id}/upgrade_pipelines`, { ...owner, body: { to_wp_version: "6.9", snapshot_id: upload.id } });
    expect(pipeline).toMatchObject({ id: expect.stringMatching(SHORT("upg")), snapshot_id: upload.id });
    expect((await ok("GET", `/sites/${site.id}/upgrade_pipelines/${pipeline.id}`)).status).toBe("awaiting_approval");
    await ok("GET", `/sites/${site.id}/upgrade_pipelines`);
    expect((await ok("POST", `/sites/${site.id}/upgrade_pipelines/${pipeline.id}/approve`, { ...owner, body: {} })).approved_by).toMatch(SHORT("usr"));

    const approvals = await ok("GET", `/activity_logs?site_id=${site.id}&action=upgrade_pipeline.approved`);
    expect(approvals).toEqual([
      expect.objectContaining({ subject_id: pipeline.id, actor: expect.objectContaining({ id: expect.stringMatching(SHORT("tok")) }) }),
    ]);
    await ok("DELETE", `/sites/${site.id}/snapshots/${(await ok("POST", `/sites/${site.id}/snapshots`, { ...owner, body: {} })).id}`);
    await ok("DELETE", `/sites/${site.id}`);
    expect((await api(emu, "GET", `/sites/${site.id}`, owner)).status).toBe(404);
  });

  it("switches accounts by a short account id, and reads accounts and users", async () => {
    const jwt = await ok("POST", "/jwt", { body: { email: USERS.owner, password: PASSWORD } });
    const accounts = await ok("GET", "/accounts", { token: `Bearer ${jwt.access_token}` });
    expect(accounts.map((a: { id: string }) => a.id)).toEqual([expect.stringMatching(SHORT("acct")), expect.stringMatching(SHORT("acct"))]);
    const other = accounts.find((a: { name: string }) => a.name === "Account B");
    await ok("GET", `/accounts/${other.id}`, { token: `Bearer ${jwt.access_token}` });
    const me = await ok("GET", "/me", { token: `Bearer ${jwt.access_token}`, headers: { "x-account-id": other.id } });
    expect(me.current_account_id).toBe(other.id);
    expect((await ok("GET", "/users")).map((u: { id: string }) => u.id).every((id: string) => SHORT("usr").test(id))).toBe(true);
  });

  it("delivers webhooks with a short endpoint id and message id", async () => {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const endpoint = await ok("POST", "/webhook_endpoints", { ...owner, body: { url } });
    expect(endpoint.id).toMatch(SHORT("we"));
    const ping = await waitFor(async () => received.find((h) => h["webhook-id"]), "the ping");
    expect(ping["webhook-id"]).toMatch(SHORT("msg"));
    await ok("GET", `/webhook_endpoints/${endpoint.id}`);
    await ok("PATCH", `/webhook_endpoints/${endpoint.id}`, { ...owner, body: { description: "short" } });
    const deliveries = await ok("GET", `/__emulator/webhook_deliveries?endpoint_id=${endpoint.id}`, {});
    expect(deliveries.deliveries[0]).toMatchObject({ id: ping["webhook-id"] });
    await ok("DELETE", `/webhook_endpoints/${endpoint.id}`);
  });
});

/** A cookie jar over fetch: the console's session and CSRF cookies. */
function browser(base: string) {
  const cookies = new Map<string, string>();
  return async (path: string, form?: Record<string, string>): Promise<{ status: number; text: string; location: string | null }> => {
    const headers: Record<string, string> = { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; ") };
    if (form) headers["content-type"] = "application/x-www-form-urlencoded";
    const res = await fetch(`${base}${path}`, { method: form ? "POST" : "GET", headers, body: form && new URLSearchParams(form), redirect: "manual" });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const at = pair!.indexOf("=");
      cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    return { status: res.status, text: await res.text(), location: res.headers.get("location") };
  };
}
const csrfOf = (html: string): string => /name="_csrf" value="([^"]+)"/.exec(html)![1]!;

describe("the web console with short ids", () => {
  it("signs in, shows a site, approves its pipeline, filters activity and deletes a token", async () => {
    const site = await ok("POST", "/sites", { ...owner, body: { name: "Console short", url: "https://console-short.example.com", wp_version: "6.4" } });
    const pipeline = await ok("POST", `/sites/${site.id}/upgrade_pipelines`, { ...owner, body: { to_wp_version: "6.9" } });
    const token = await ok("POST", "/auth", { body: { email: USERS.owner, password: PASSWORD, name: "to delete" } });
    const get = browser(emu.url);
    const signIn = await get("/sign-in", { _csrf: csrfOf((await get("/sign-in")).text), email: USERS.owner, password: PASSWORD });
    expect([signIn.status, signIn.location]).toEqual([303, "/sites"]);
    expect((await get("/sites")).text).toContain(`/sites/${site.id}`);
    const page = await get(`/sites/${site.id}`);
    expect([page.status, page.text.includes("Console short")]).toEqual([200, true]);
    const approved = await get(`/sites/${site.id}/pipelines/${pipeline.id}/approve`, { _csrf: csrfOf(page.text), comment: "from the console" });
    expect([approved.status, approved.text.includes(`Pipeline ${pipeline.id} approved.`)]).toEqual([200, true]);
    const activity = await get(`/activity?site_id=${site.id}`);
    expect([activity.status, activity.text.includes("upgrade_pipeline.approved")]).toEqual([200, true]);
    expect((await get("/webhooks")).status).toBe(200);
    const settings = await get("/settings/api");
    const tokenId = /<tr><td>to delete<\/td>[\s\S]*?\/settings\/api\/tokens\/([^/]+)\/delete/.exec(settings.text)?.[1];
    expect(tokenId).toMatch(SHORT("tok"));
    const deleted = await get(`/settings/api/tokens/${tokenId}/delete`, { _csrf: csrfOf(settings.text) });
    expect(deleted.status).toBeLessThan(400);
    expect((await api(emu, "GET", "/me", { token: token.token })).status).toBe(401);
  });
});
