// Pipeline states named otherwise (/__emulator/pipeline-states): the emulator answers as a second server that follows
// the contract but names its pipeline states its own way (pending -> upgrading -> completed), in every answer, list
// and webhook payload of a pipeline, while the pipelines run as before; refused names, DELETE and reset.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { TOKENS, api, startTestEmulator } from "./helpers.js";

let emu: RunningEmulator;
let n = 0;

async function createSite(): Promise<string> {
  const res = await api(emu, "POST", "/sites", {
    token: TOKENS.owner,
    body: { name: `States ${++n}`, url: `https://states-${n}.example.com`, wp_version: "6.5", php_version: "8.2" },
  });
  expect(res.status).toBe(201);
  return res.body.id;
}

const setNames = (names: Record<string, string>) => api(emu, "POST", "/__emulator/pipeline-states", { body: { names } });
const SECOND_SERVER = { pending: "pending", running: "upgrading", applying: "upgrading", succeeded: "completed", rolled_back: "reverted" };

beforeAll(async () => {
  emu = await startTestEmulator();
});
beforeEach(async () => {
  expect((await api(emu, "DELETE", "/__emulator/pipeline-states")).status).toBe(204);
  await api(emu, "DELETE", "/__emulator/pipeline-outcomes");
});
afterAll(async () => {
  await emu?.close();
});

describe("pipeline states named otherwise", () => {
  it("answers carry the names set (create, get, list); the pipeline runs as before and the site takes its versions", async () => {
    expect((await setNames(SECOND_SERVER)).body).toEqual({ names: SECOND_SERVER });
    const id = await createSite();
    const created = await api(emu, "POST", `/sites/${id}/upgrade_pipelines`, { token: TOKENS.owner, body: { to_wp_version: "6.8", requires_approval: false } });
    expect([created.status, created.body.status]).toEqual([201, "pending"]);
    const got = await api(emu, "GET", `/sites/${id}/upgrade_pipelines/${created.body.id}`, { token: TOKENS.owner });
    expect(got.body).toMatchObject({ status: "completed", to_wp_version: "6.8", completed_at: expect.any(String) });
    const listed = await api(emu, "GET", `/sites/${id}/upgrade_pipelines`, { token: TOKENS.owner });
    expect(listed.body.map((p: { status: string }) => p.status)).toEqual(["completed"]);
    expect((await api(emu, "GET", `/sites/${id}`, { token: TOKENS.owner })).body.wp_version).toBe("6.8");
  });

  it("a rollback reads as the name set for rolled_back; a state with no name set keeps its own", async () => {
    await setNames({ rolled_back: "reverted" });
    const id = await createSite();
    await api(emu, "POST", "/__emulator/pipeline-outcomes", { body: { rules: [{ site_id: id, outcome: "roll_back" }] } });
    const created = await api(emu, "POST", `/sites/${id}/upgrade_pipelines`, { token: TOKENS.owner, body: { to_wp_version: "6.8" } });
    expect(created.body.status).toBe("pending");
    const got = await api(emu, "GET", `/sites/${id}/upgrade_pipelines/${created.body.id}`, { token: TOKENS.owner });
    expect(got.body.status).toBe("awaiting_approval");
    const approved = await api(emu, "POST", `/sites/${id}/upgrade_pipelines/${created.body.id}/approve`, { token: TOKENS.owner, body: {} });
    expect(approved.body.status).toBe("applying");
    const after = await api(emu, "GET", `/sites/${id}/upgrade_pipelines/${created.body.id}`, { token: TOKENS.owner });
    expect(after.body.status).toBe("reverted");
    expect((await api(emu, "GET", `/sites/${id}`, { token: TOKENS.owner })).body.wp_version).toBe("6.5");
  });

  it("refuses a state the emulator does not have or a name that is not one; DELETE and reset forget the names", async () => {
    const bad = await setNames({ finished: "done" });
    expect([bad.status, bad.body.error]).toEqual([422, expect.stringMatching(/^names\.finished: not one of the emulator's states/)]);
    expect((await setNames({ succeeded: "all good!" })).status).toBe(422);
    expect((await api(emu, "GET", "/__emulator/pipeline-states")).body).toEqual({ names: {} });
    await setNames({ succeeded: "completed" });
    expect((await api(emu, "POST", "/__emulator/reset")).status).toBe(200);
    expect((await api(emu, "GET", "/__emulator/pipeline-states")).body).toEqual({ names: {} });
  });
});
