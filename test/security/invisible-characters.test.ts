// Issue 38 item 9 (Trojan Source, CVE-2021-42574): bidirectional controls, invisible format characters, tag
// characters and lone surrogates are refused in every text the API stores (site names, snapshot and webhook
// descriptions, approval and dismissal comments, token names), through the API and the console, and in site and
// webhook URLs (with ZWNJ and ZWJ too); the rule that refuses them and the one that escapes them on output
// (common/sanitize.ts) are the same set. The output side (the CLI, `siteops export`) is in
// invisible-characters-output.test.ts. The policy: docs/design.md, "Input: control and invisible characters".
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { clean, escapeInvisible } from "../../common/sanitize.js";
import { hasControlCharacters } from "../../wire/common.js";
import { PASSWORD, TOKENS, USERS, advanceClock, api, startTestEmulator } from "../emulator/helpers.js";
import { ConsoleClient } from "./helpers.js";

/** One of each class the policy names, as the probes sent them. */
const INVISIBLE = [
  ["RLO (right-to-left override)", "\u202e"],
  ["LRE (left-to-right embedding)", "\u202a"],
  ["FSI (first strong isolate)", "\u2068"],
  ["PDI (pop directional isolate)", "\u2069"],
  ["LRM (left-to-right mark)", "\u200e"],
  ["RLM (right-to-left mark)", "\u200f"],
  ["ALM (Arabic letter mark)", "\u061c"],
  ["ZWSP (zero width space)", "\u200b"],
  ["WJ (word joiner)", "\u2060"],
  ["BOM (zero width no-break space)", "\ufeff"],
  ["MVS (Mongolian vowel separator)", "\u180e"],
  ["a tag character (U+E0041)", "\u{e0041}"],
  ["a lone high surrogate", "\ud800"],
  ["a lone low surrogate", "\udc00"],
] as const;
const REFUSED = ["must not contain control characters"];

describe("one policy: what the API refuses is what the CLI and the action escape", () => {
  it("over every code point (and every lone surrogate), refused in text iff clean escapes it; refused in a URL iff export escapes it", () => {
    const text: number[] = [];
    const url: number[] = [];
    const disagree: string[] = [];
    for (let code = 0; code <= 0x10ffff; code++) {
      const char = String.fromCodePoint(code);
      const refused = hasControlCharacters(`a${char}b`);
      if (refused !== (clean(char) !== char)) disagree.push(`U+${code.toString(16)} in text`);
      if (refused) text.push(code);
      const refusedInUrl = hasControlCharacters(`https://x.test/${char}`, "url");
      if (refusedInUrl !== (escapeInvisible(char, () => "") !== char)) disagree.push(`U+${code.toString(16)} in a URL`);
      if (refusedInUrl) url.push(code);
    }
    expect(disagree).toEqual([]);
    const ranges = (codes: number[]) =>
      codes
        .reduce<[number, number][]>((out, c) => {
          const last = out.at(-1);
          if (last && last[1] === c - 1) last[1] = c;
          else out.push([c, c]);
          return out;
        }, [])
        .map(([a, b]) => (a === b ? a.toString(16) : `${a.toString(16)}-${b.toString(16)}`));
    // The set docs/design.md documents, in one place.
    const TEXT = ["0-1f", "7f-9f", "61c", "180e", "200b", "200e-200f", "2028-202e", "2060-2064", "2066-206f", "d800-dfff", "feff", "fff9-fffb", "e0000-e007f"];
    expect(ranges(text)).toEqual(TEXT);
    expect(ranges(url)).toEqual(TEXT.map((r) => (r === "200b" ? "200b-200f" : r)).filter((r) => r !== "200e-200f"));
    // A surrogate pair is one character, never refused as two halves.
    expect(hasControlCharacters("\ud83d\udcdd Blog")).toBe(false);
  });
});

let emu: RunningEmulator;
let siteId: string;
beforeAll(async () => {
  emu = await startTestEmulator();
  const site = await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "Hygiene", url: "https://hygiene.acme.test", wp_version: "6.2" } });
  expect(site.status).toBe(201);
  siteId = site.body.id;
});
afterAll(async () => emu?.close());

let pipeline: { id: string } | undefined;
/** The site's one upgrade pipeline, once it awaits approval (the approve checks the comment after the state). */
async function awaitingApproval(): Promise<{ id: string }> {
  pipeline ??= (await api(emu, "POST", `/sites/${siteId}/upgrade_pipelines`, { token: TOKENS.owner, body: { to_wp_version: "6.4" } })).body;
  for (let i = 0; i < 20; i++) {
    const now = await api(emu, "GET", `/sites/${siteId}/upgrade_pipelines/${pipeline!.id}`, { token: TOKENS.owner });
    if (now.body.status === "awaiting_approval") return pipeline!;
    await advanceClock(emu, 60);
  }
  throw new Error("the pipeline never awaited approval");
}

describe("the API refuses them in every text it stores: 422 on the field, nothing stored", () => {
  it.each(INVISIBLE)("%s in a site name (create and update)", async (_what, ch) => {
    const created = await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: `Pay${ch}Pal`, url: "https://invisible.example.com" } });
    expect([created.status, created.body.errors]).toEqual([422, { name: REFUSED }]);
    const patched = await api(emu, "PATCH", `/sites/${siteId}`, { token: TOKENS.owner, body: { name: `admin${ch}` } });
    expect([patched.status, patched.body.errors]).toEqual([422, { name: REFUSED }]);
    expect((await api(emu, "GET", `/sites/${siteId}`, { token: TOKENS.owner })).body.name).toBe("Hygiene");
  });

  it.each(INVISIBLE)("%s in a snapshot or webhook description, an approval or dismissal comment, a token name", async (_what, ch) => {
    const text = `ok ${ch}done`;
    const snap = await api(emu, "POST", `/sites/${siteId}/snapshots`, { token: TOKENS.owner, body: { description: text } });
    expect([snap.status, snap.body.errors]).toEqual([422, { description: REFUSED }]);

    const hook = await api(emu, "POST", "/webhook_endpoints", { token: TOKENS.owner, body: { url: "https://hooks.example.com/x", description: text } });
    expect([hook.status, hook.body.errors]).toEqual([422, { description: REFUSED }]);

    const pipe = await awaitingApproval();
    const approve = await api(emu, "POST", `/sites/${siteId}/upgrade_pipelines/${pipe.id}/approve`, { token: TOKENS.owner, body: { comment: text } });
    expect([approve.status, approve.body.errors]).toEqual([422, { comment: REFUSED }]);

    const record = (await api(emu, "GET", `/sites/${siteId}/vulnerability_records`, { token: TOKENS.owner })).body[0];
    const dismiss = await api(emu, "PATCH", `/sites/${siteId}/vulnerability_records/${record.id}`, {
      token: TOKENS.owner,
      body: { status: "ignored", dismissed_reason: "tolerable_risk", dismissed_comment: text },
    });
    expect([dismiss.status, dismiss.body.errors]).toEqual([422, { dismissed_comment: REFUSED }]);

    const token = await api(emu, "POST", "/auth", { body: { email: USERS.owner, password: PASSWORD, name: text } });
    expect([token.status, token.body.errors]).toEqual([422, { name: REFUSED }]);
  });

  it("ZWNJ and ZWJ stay allowed in text: Persian and emoji sequences are kept as typed", async () => {
    for (const name of ["می\u200cخواهم", "Family \u{1f468}\u200d\u{1f469}\u200d\u{1f467} blog", "Notes \u{1f4dd}"]) {
      const res = await api(emu, "PATCH", `/sites/${siteId}`, { token: TOKENS.owner, body: { name } });
      expect([res.status, res.body.name]).toEqual([200, name]);
    }
    expect((await api(emu, "PATCH", `/sites/${siteId}`, { token: TOKENS.owner, body: { name: "Hygiene" } })).status).toBe(200);
  });
});

describe("site and webhook URLs refuse them, and ZWNJ and ZWJ too", () => {
  const IN_URLS = [...INVISIBLE, ["ZWNJ", "\u200c"], ["ZWJ", "\u200d"]] as const;
  it.each(IN_URLS)("%s in the path of a site URL (create and update) and a webhook URL", async (_what, ch) => {
    const created = await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "Spoof", url: `https://spoof.example/adm${ch}in` } });
    expect([created.status, created.body.errors]).toEqual([422, { url: REFUSED }]);
    const patched = await api(emu, "PATCH", `/sites/${siteId}`, { token: TOKENS.owner, body: { url: `https://hygiene.acme.test/${ch}` } });
    expect([patched.status, patched.body.errors]).toEqual([422, { url: REFUSED }]);
    const hook = await api(emu, "POST", "/webhook_endpoints", {
      token: TOKENS.owner,
      body: { url: `https://hooks.example/x${ch}y`, enabled_events: ["site.created"] },
    });
    expect([hook.status, hook.body.errors]).toEqual([422, { url: REFUSED }]);
  });
});

describe("the console refuses what the API refuses", () => {
  it.each(INVISIBLE.filter(([what]) => !what.includes("surrogate")))("%s in a token name: 422, and no token is made", async (_what, ch) => {
    const browser = new ConsoleClient(emu.port);
    await browser.signIn(USERS.admin, PASSWORD);
    const before = await api(emu, "GET", "/activity_logs?per_page=100", { token: TOKENS.owner });
    const res = await browser.request("POST", "/settings/api/tokens", { name: `deploy${ch}key`, _csrf: await browser.csrf("/settings/api") });
    expect(res.status).toBe(422);
    expect(res.text).toContain("must not contain control characters");
    expect(res.text).not.toMatch(/sot_[A-Za-z0-9]{20,}/);
    const after = await api(emu, "GET", "/activity_logs?per_page=100", { token: TOKENS.owner });
    expect(after.body.length).toBe(before.body.length);
  });

  it("an approval comment with an RLO or a ZWSP: 422, and the comment is not stored", async () => {
    const browser = new ConsoleClient(emu.port);
    await browser.signIn(USERS.admin, PASSWORD);
    const pipe = await awaitingApproval();
    for (const ch of ["\u202e", "\u200b"]) {
      const res = await browser.request("POST", `/sites/${siteId}/pipelines/${pipe.id}/approve`, {
        comment: `looks ${ch}good`,
        _csrf: await browser.csrf(`/sites/${siteId}`),
      });
      expect(res.status).toBe(422);
      expect(res.text).toContain("must not contain control characters");
      const now = await api(emu, "GET", `/sites/${siteId}/upgrade_pipelines/${pipe.id}`, { token: TOKENS.owner });
      expect(now.body.status).toBe("awaiting_approval");
      expect(JSON.stringify(now.body)).not.toContain("looks");
    }
  });
});
