// How the console reads in a real browser: the demo credentials hinted at on the sign-in page of a --demo
// emulator only, sizes as the CLI prints them (exact bytes in the title) and SHA-256 digests each on one line,
// every time with its zone, and the activity filter's placeholders shown whole.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SiteOps } from "../../src/index.js";
import { formatBytes } from "../../common/format.js";
import { startTestEmulator } from "../emulator/helpers.js";
import type { RunningEmulator } from "../../emulator/index.js";
import { TOKENS, USERS, haveChromium, screenshot, signIn, useConsoleEnv } from "./helpers.js";

/** An element as page code sees it (the tests compile without the DOM library). */
type El = { scrollWidth: number; clientWidth: number; offsetHeight: number; getClientRects(): { length: number } };
type Styles = { getComputedStyle(el: El): { fontSize: string } };

describe.runIf(haveChromium())("console display (Chromium)", () => {
  const env = useConsoleEnv();
  let demo: RunningEmulator;
  let so: SiteOps;
  let siteId: string;

  beforeAll(async () => {
    demo = await startTestEmulator({ demo: true });
    so = new SiteOps({ baseUrl: env.emu.url, apiToken: TOKENS.owner, maxRetries: 0 });
    siteId = (await so.sites.create({ name: "Sized blog", url: "https://sized.example", wp_version: "6.4", php_version: "8.1" })).id;
    await fetch(`${env.emu.url}/__emulator/health_checks`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ site_id: siteId }),
    });
  });
  afterAll(async () => {
    await demo?.close();
  });

  it("a --demo emulator's sign-in page gives the demo credentials, which sign in; any other gives none", async () => {
    const page = await env.browser.newPage();
    await page.goto(`${demo.url}/sign-in`);
    const hint = (await page.locator("#demo-hint").textContent())!;
    expect(hint).toBe(`This emulator runs the demo account: sign in as ${demo.demo!.email} with the password ${demo.demo!.password}.`);
    await screenshot(page, "sign-in-demo");
    const [email, password] = await page.locator("#demo-hint code").allTextContents();
    await page.getByLabel("Email").fill(email!);
    await page.getByLabel("Password").fill(password!);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${demo.url}/sites`);

    await page.goto(`${env.emu.url}/sign-in`);
    expect(await page.locator("#demo-hint").count()).toBe(0);
    expect(await page.content()).not.toContain(demo.demo!.password);
    await page.close();
  });

  it("shows a snapshot's size as the CLI does and its SHA-256, each on one line, with the exact values in titles", async () => {
    const created = await so.snapshots.create(siteId, { description: "nightly" });
    await expect.poll(async () => (await so.snapshots.get(siteId, created.id)).status).toBe("completed");
    const snap = await so.snapshots.get(siteId, created.id);
    expect(snap.size_bytes).toBeGreaterThan(1024 * 1024);
    const page = await env.browser.newPage({ viewport: { width: 900, height: 800 } });
    await signIn(page, env.emu, USERS.owner);
    await page.goto(`${env.emu.url}/sites/${siteId}`);
    const row = page.getByRole("row", { name: new RegExp(snap.id) });
    const size = row.locator(`[title="${snap.size_bytes!.toLocaleString("en")} bytes"]`);
    await expect(size.textContent()).resolves.toBe(formatBytes(snap.size_bytes));
    expect(await size.evaluate((el: El) => el.getClientRects().length)).toBe(1);
    const digest = row.locator(`code[title="${snap.checksum_sha256!}"]`);
    await expect(digest.textContent()).resolves.toBe(snap.checksum_sha256);
    // One line is about 1.2 to 1.5 times the font size; the old page took three.
    const lines = await digest.evaluate((el: El) => el.offsetHeight / Number.parseFloat((globalThis as unknown as Styles).getComputedStyle(el).fontSize));
    expect(lines).toBeLessThan(2);
    await screenshot(page, "site-snapshot-size");
    await page.close();
  });

  it("gives every time its zone, the chart's axis too", async () => {
    const page = await env.browser.newPage({ viewport: { width: 1100, height: 900 } });
    await signIn(page, env.emu, USERS.owner);
    for (const path of ["/sites", `/sites/${siteId}`, "/activity", "/settings/api"]) {
      await page.goto(`${env.emu.url}${path}`);
      const times = await page.locator("time").allTextContents();
      expect(times.length, path).toBeGreaterThan(0);
      for (const t of times) expect([path, t]).toEqual([path, expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/)]);
    }
    await page.goto(`${env.emu.url}/sites/${siteId}`);
    const axis = await page.locator("svg.chart > text").allTextContents();
    expect(axis.filter((t) => /^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/.test(t))).toHaveLength(2);
    await page.close();
  });

  it("shows the activity filter's placeholders whole", async () => {
    const page = await env.browser.newPage({ viewport: { width: 1100, height: 900 } });
    await signIn(page, env.emu, USERS.owner);
    await page.goto(`${env.emu.url}/activity`);
    for (const label of ["Action", "Since", "Until"]) {
      const input = page.getByLabel(label);
      const placeholder = (await input.getAttribute("placeholder"))!;
      // The placeholder's own text as the value: same font, so it fits exactly when the placeholder does.
      await input.fill(placeholder);
      const [scroll, client] = await input.evaluate((el: El) => [el.scrollWidth, el.clientWidth]);
      expect([label, placeholder, scroll <= client!]).toEqual([label, placeholder, true]);
    }
    await page.close();
  });
});
