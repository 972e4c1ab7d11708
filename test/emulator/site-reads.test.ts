// GET /sites/:id is served from a read cache: every way a site changes must show on the next GET,
// and a cached site must stay invisible to other accounts.
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { TOKENS, advanceClock, api, startTestEmulator } from "./helpers.js";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startTestEmulator({ stepSeconds: 2 });
});
afterAll(async () => {
  await emu?.close();
});

const get = async (id: string, token: string = TOKENS.owner) => api(emu, "GET", `/sites/${id}`, { token });

async function newSite(name: string, wp = "6.5"): Promise<string> {
  const res = await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name, url: `https://${name}.example.com`, wp_version: wp } });
  expect(res.status).toBe(201);
  await get(res.body.id); // warm the cache
  return res.body.id;
}

it("shows a PATCH on the next read", async () => {
  const id = await newSite("patched");
  await api(emu, "PATCH", `/sites/${id}`, { token: TOKENS.owner, body: { name: "Renamed" } });
  expect((await get(id)).body.name).toBe("Renamed");
});

it("shows a status change from a health check on the next read", async () => {
  const id = await newSite("status");
  expect((await get(id)).body.status).not.toBe("down");
  await api(emu, "POST", "/__emulator/health_checks", { body: { site_id: id, status: "failed" } });
  expect((await get(id)).body.status).toBe("down");
});

it("shows maintenance while a pipeline applies and the new versions after it", async () => {
  const id = await newSite("upgraded");
  const pipe = await api(emu, "POST", `/sites/${id}/upgrade_pipelines`, { token: TOKENS.owner, body: { to_wp_version: "6.9", requires_approval: false } });
  expect(pipe.status).toBe(201);
  const seen = new Set<string>();
  for (let i = 0; i < 20; i++) {
    const site = (await get(id)).body;
    seen.add(site.status);
    if (site.wp_version === "6.9") break;
    await advanceClock(emu, 2);
  }
  expect(seen).toContain("maintenance");
  expect((await get(id)).body).toMatchObject({ wp_version: "6.9" });
  expect((await get(id)).body.status).not.toBe("maintenance");
});

it("404s after a delete and for another account, even when cached", async () => {
  const id = await newSite("deleted");
  expect((await get(id, TOKENS.ownerB)).status).toBe(404);
  expect((await api(emu, "DELETE", `/sites/${id}`, { token: TOKENS.owner })).status).toBe(204);
  expect(await get(id)).toMatchObject({ status: 404, body: { error: "Record not found" } });
});

it("forgets everything on reset", async () => {
  const id = await newSite("reset");
  await api(emu, "POST", "/__emulator/reset");
  expect((await get(id)).status).toBe(404);
});
