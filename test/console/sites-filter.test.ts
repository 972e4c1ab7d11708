// The console's site list at 300 sites (issue 49 item 7), in real Chromium: a messy fleet from one seed line
// (generate.spread), then the status filter, the search by name or URL and the sorts by name, status and
// WordPress version, all done by the server (the rows and counts are the database's), kept across pages and
// sorts, each view a link; a bad parameter is a message, not a crash.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { standardSeed } from "../emulator/helpers.js";
import { USERS, haveChromium, screenshot, signIn, useConsoleEnv } from "./helpers.js";

const SITES = 300;

describe.runIf(haveChromium())("console: the sites of a 300-site fleet, filtered, searched and sorted (Chromium)", () => {
  const env = useConsoleEnv({ seed: { ...standardSeed(), generate: { sites: SITES, spread: { seed: 1 } } } });

  /** The database's answer, to hold the page to. */
  const count = (where: string): number => (env.emu.context.db.prepare(`SELECT COUNT(*) AS n FROM sites WHERE ${where}`).get() as { n: number }).n;
  /** The table's rows as [name, status, WordPress]. */
  const rows = async (page: Page): Promise<string[][]> =>
    page.locator("tbody tr").evaluateAll((trs) =>
      trs.map((tr) => {
        const cells = [...tr.querySelectorAll("td")].map((td) => td.textContent!.trim());
        return [tr.querySelector("td a")!.textContent!.trim(), cells[1]!, cells[2]!];
      }),
    );

  async function signedIn(): Promise<Page> {
    const page = await env.browser.newPage({ viewport: { width: 1200, height: 900 } });
    await signIn(page, env.emu, USERS.owner);
    return page;
  }

  it("filters by status: the sites that need attention, on one page", async () => {
    const page = await signedIn();
    await expect(page.getByText(`${SITES} sites in Account A.`).count()).resolves.toBe(1);
    await expect(page.getByText("Page 1 of 3").count()).resolves.toBe(1);
    await page.getByLabel("Status").selectOption({ label: "Needs attention (degraded or down)" });
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL(/status=degraded%2Cdown/);
    const attention = count("status IN ('degraded', 'down')");
    expect(attention).toBeGreaterThan(10);
    await expect(page.getByRole("status").textContent()).resolves.toBe(`${attention} of ${SITES} sites in Account A match.`);
    const shown = await rows(page);
    expect(shown).toHaveLength(attention);
    expect(new Set(shown.map((r) => r[1]))).toEqual(new Set(["degraded", "down"]));
    await screenshot(page, "sites-needs-attention");

    await page.getByLabel("Status").selectOption("down");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL(/status=down(&|$)/);
    expect((await rows(page)).map((r) => r[1])).toEqual(Array(count("status = 'down'")).fill("down"));
    await page.close();
  });

  it("searches by name or URL, whatever the case", async () => {
    const page = await signedIn();
    await page.getByLabel("Search").fill("SITE-00042.fleet");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL(/q=SITE-00042\.fleet/);
    expect((await rows(page)).map((r) => r[0])).toEqual(["Site 00042"]);
    await page.getByLabel("Search").fill("site 0001");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL(/q=site\+0001/);
    expect((await rows(page)).map((r) => r[0])).toEqual(Array.from({ length: 10 }, (_, i) => `Site 0001${i}`));
    // % and _ are text, not patterns.
    await page.goto(`${env.emu.url}/sites?q=${encodeURIComponent("%")}`);
    await expect(page.getByText("No site matches.").count()).resolves.toBe(1);
    await page.close();
  });

  it("sorts by WordPress version (numerically), status and name, both ways, and keeps the sort across pages and filters", async () => {
    const page = await signedIn();
    await page.getByRole("link", { name: "WordPress", exact: true }).click();
    await page.waitForURL(/sort=wp_version/);
    await expect(page.getByRole("columnheader", { name: /WordPress/ }).getAttribute("aria-sort")).resolves.toBe("ascending");
    const oldest = (env.emu.context.db.prepare("SELECT wp_version FROM sites ORDER BY CAST(wp_version AS REAL) LIMIT 1").get() as { wp_version: string })
      .wp_version;
    expect((await rows(page))[0]![2]).toBe(oldest);
    await page.getByRole("link", { name: "WordPress", exact: true }).click();
    await page.waitForURL(/sort=wp_version&dir=desc/);
    expect((await rows(page))[0]![2]).toBe("7.0");
    await screenshot(page, "sites-sorted-by-version");

    // The sort survives a filter and the pages: every page sorted, the next one carrying on where this one ended.
    await page.getByLabel("Search").fill("Site 00");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL(/q=Site\+00.*sort=wp_version&dir=desc|sort=wp_version&dir=desc.*q=Site\+00/);
    const rank = (v: string): number => Number(v.split(".")[0]) * 1000 + Number(v.split(".")[1]);
    const first = (await rows(page)).map((r) => rank(r[2]!));
    await page.getByRole("link", { name: "Next" }).click();
    await page.waitForURL(/page=2/);
    const second = (await rows(page)).map((r) => rank(r[2]!));
    const versions = [...first, ...second];
    expect(versions).toEqual([...versions].sort((a, b) => b - a));

    await page.goto(`${env.emu.url}/sites?sort=status`);
    const byStatus = (await rows(page)).map((r) => r[1]);
    expect(byStatus.slice(0, count("status = 'down'"))).toEqual(Array(count("status = 'down'")).fill("down"));
    expect(byStatus[count("status IN ('down', 'degraded')")]).toBe("healthy");

    await page.goto(`${env.emu.url}/sites?sort=name&dir=desc`);
    expect((await rows(page))[0]![0]).toBe("Site 00300");
    await page.close();
  });

  it("answers a bad parameter with one line and the whole list (400)", async () => {
    const page = await signedIn();
    const res = await page.goto(`${env.emu.url}/sites?status=broken&sort=size`);
    expect(res!.status()).toBe(400);
    await expect(page.getByRole("alert").textContent()).resolves.toContain('Unknown status "broken": use healthy, degraded, down, maintenance, unknown.');
    await expect(page.getByText(`${SITES} sites in Account A.`).count()).resolves.toBe(1);
    await page.close();
  });
});
