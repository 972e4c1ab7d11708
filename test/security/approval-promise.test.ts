// What approval promises (issue 38 item 10): while a pipeline is active, awaiting approval included, a direct
// PATCH of the site's versions is refused on the field, naming the pipeline; the name and the URL still change,
// and once the pipeline has ended the versions can be patched again.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { TOKENS, api, startTestEmulator } from "../emulator/helpers.js";

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startTestEmulator(); // stepSeconds 0: a pipeline runs to its next stop before the next request
});

afterAll(async () => {
  await emu?.close();
});

describe("a pipeline awaiting approval", () => {
  it("keeps an admin's direct PATCH away from the site's versions until it has ended", async () => {
    const site = (
      await api(emu, "POST", "/sites", {
        token: TOKENS.owner,
        body: { name: "Gated", url: "https://gated.example.com", wp_version: "6.4", php_version: "8.1" },
      })
    ).body;
    const pipeline = (await api(emu, "POST", `/sites/${site.id}/upgrade_pipelines`, { token: TOKENS.owner, body: { to_wp_version: "6.9" } })).body;
    expect((await api(emu, "GET", `/sites/${site.id}/upgrade_pipelines/${pipeline.id}`, { token: TOKENS.owner })).body.status).toBe("awaiting_approval");

    for (const body of [{ wp_version: "6.9" }, { wp_version: "6.5" }, { php_version: "8.3" }]) {
      const res = await api(emu, "PATCH", `/sites/${site.id}`, { token: TOKENS.admin, body });
      expect(res.status).toBe(422);
      const field = Object.keys(body)[0]!;
      expect(res.body.errors).toEqual({ [field]: [`can't be changed while upgrade pipeline ${pipeline.id} is active; approve it or let it end first`] });
    }
    const site1 = (await api(emu, "GET", `/sites/${site.id}`, { token: TOKENS.owner })).body;
    expect([site1.wp_version, site1.php_version]).toEqual(["6.4", "8.1"]);

    // Other fields are not the pipeline's; the same versions as now are no change at all.
    const renamed = await api(emu, "PATCH", `/sites/${site.id}`, { token: TOKENS.admin, body: { name: "Gated (renamed)", wp_version: "6.4" } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe("Gated (renamed)");

    expect((await api(emu, "POST", `/sites/${site.id}/upgrade_pipelines/${pipeline.id}/approve`, { token: TOKENS.admin, body: {} })).status).toBe(200);
    expect((await api(emu, "GET", `/sites/${site.id}/upgrade_pipelines/${pipeline.id}`, { token: TOKENS.owner })).body.status).toBe("succeeded");
    const after = await api(emu, "PATCH", `/sites/${site.id}`, { token: TOKENS.admin, body: { php_version: "8.3" } });
    expect(after.status).toBe(200);
    expect([after.body.wp_version, after.body.php_version]).toEqual(["6.9", "8.3"]);
  });
});
