// GET /sites pages are read by key inside (store/sites.ts): whichever way a client walks them, in order, by
// jumping, across creates and deletes, each page and total must be what an OFFSET over the account gives.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator, SeedFile } from "../../emulator/index.js";
import { TOKENS, api, standardSeed, startTestEmulator } from "./helpers.js";

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: { ...standardSeed(), generate: { sites: 120, account: "Account B" } } as SeedFile });
});
afterAll(() => emu?.close());

/** Every site id of account B in listing order, straight from SQLite. */
function reference(): string[] {
  const acct = emu.context.db.prepare("SELECT id FROM accounts WHERE name = 'Account B'").get() as { id: string };
  return (emu.context.db.prepare("SELECT id FROM sites WHERE account_id = ? ORDER BY seq").all(acct.id) as { id: string }[]).map((r) => r.id);
}

async function page(n: number, perPage: number): Promise<{ ids: string[]; total: string | null; link: string | null }> {
  const res = await api(emu, "GET", `/sites?page=${n}&per_page=${perPage}`, { token: TOKENS.ownerB });
  expect(res.status).toBe(200);
  return { ids: res.body.map((s: { id: string }) => s.id), total: res.headers.get("total-count"), link: res.headers.get("link") };
}

async function expectPagesMatch(perPage: number, order: number[]): Promise<void> {
  const all = reference();
  for (const n of order) {
    const got = await page(n, perPage);
    expect(got.ids, `page ${n} of ${perPage}`).toEqual(all.slice((n - 1) * perPage, n * perPage));
    expect(got.total).toBe(String(all.length));
  }
}

describe("site pages read by key", () => {
  it("walk in order, backwards and by jumping", async () => {
    await expectPagesMatch(
      7,
      Array.from({ length: 19 }, (_, i) => i + 1),
    ); // 120 / 7: 18 pages, then one past the end
    await expectPagesMatch(7, [18, 17, 3, 11, 1, 12, 12]);
    await expectPagesMatch(100, [2, 1, 2]);
  });

  it("stay true after a delete in the middle and a create at the end", async () => {
    await expectPagesMatch(10, [1, 2, 3, 4, 5, 6]);
    const victim = reference()[23]!;
    expect((await api(emu, "DELETE", `/sites/${victim}`, { token: TOKENS.ownerB })).status).toBe(204);
    await expectPagesMatch(10, [3, 4, 5, 6, 12, 13]);
    const created = await api(emu, "POST", "/sites", { token: TOKENS.ownerB, body: { name: "New", url: "https://new.fleet.example" } });
    expect(created.status).toBe(201);
    await expectPagesMatch(10, [5, 6, 12, 13, 1]);
    expect((await page(12, 10)).ids.at(-1)).toBe(created.body.id);
  });

  it("keep the Link header of a numbered page", async () => {
    const { link } = await page(3, 50);
    expect(link).toContain('page=2&per_page=50>; rel="prev"');
    expect(link).toContain('page=3&per_page=50>; rel="last"');
    expect(link).not.toContain('rel="next"');
  });
});
