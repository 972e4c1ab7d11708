// Settings -> API in a real browser: create a token (shown once, with a copy button), use it with the
// core client against the API, see it listed by prefix with its last use, delete it and see the API
// refuse it; a member manages only their own tokens.
import { describe, expect, it } from "vitest";
import { AuthenticationError, SiteOps } from "../../src/index.js";
import { TOKENS, USERS, csrfOf, haveChromium, postForm, screenshot, signIn, useConsoleEnv } from "./helpers.js";

describe.runIf(haveChromium())("console Settings -> API (Chromium)", () => {
  const env = useConsoleEnv();

  it("creates a token shown once, which works with the core client until it is deleted", async () => {
    const context = await env.browser.newContext({ permissions: ["clipboard-read", "clipboard-write"] });
    const page = await context.newPage();
    await signIn(page, env.emu, USERS.admin);
    await page.getByRole("link", { name: "Settings" }).click();
    await page.getByLabel("Token name").fill("GitHub Actions");
    await page.getByRole("button", { name: "Create token" }).click();
    const token = await page.getByLabel("Token", { exact: true }).inputValue();
    expect(token).toMatch(/^sot_[A-Za-z0-9]{40}$/);
    // The variable the CLI, the provider and the action read (not SITEOPS_TOKEN: they exit 3 without this one).
    await expect(page.locator("code", { hasText: /^SITEOPS_API_TOKEN$/ }).count()).resolves.toBe(1);
    expect(await page.content()).not.toContain("SITEOPS_TOKEN");
    await page.getByRole("button", { name: "Copy" }).click();
    await expect(
      page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText()),
    ).resolves.toBe(token);
    await screenshot(page, "settings-api-created");

    const so = new SiteOps({ baseUrl: env.emu.url, apiToken: token, maxRetries: 0 });
    const me = await so.me();
    expect(me.email).toBe(USERS.admin);

    // Shown once: the list has the name and prefix only, and the last use.
    await page.goto(`${env.emu.url}/settings/api`);
    const html = await page.content();
    expect(html).not.toContain(token);
    const row = page.getByRole("row", { name: /GitHub Actions/ });
    await expect(row.textContent()).resolves.toContain(`${token.slice(0, 8)}…`);
    await expect(row.locator("td").nth(3).textContent()).resolves.not.toBe("never");
    await screenshot(page, "settings-api");

    await row.getByRole("button", { name: "Delete token GitHub Actions" }).click();
    await expect(page.getByRole("status").textContent()).resolves.toContain("Token deleted");
    await expect(so.me()).rejects.toBeInstanceOf(AuthenticationError);
    expect(await page.getByRole("row", { name: /GitHub Actions/ }).count()).toBe(0);

    const log = (await (
      await fetch(`${env.emu.url}/api/v1/activity_logs?action=api_token.*`, { headers: { authorization: `token ${TOKENS.owner}` } })
    ).json()) as { action: string; actor: { name: string } }[];
    expect(log.slice(0, 2).map((e) => [e.action, e.actor.name])).toEqual([
      ["api_token.revoked", "Adam Admin"],
      ["api_token.created", "Adam Admin"],
    ]);
    await context.close();
  });

  it("lets a member see and delete only their own tokens", async () => {
    const page = await env.browser.newPage();
    await signIn(page, env.emu, USERS.member);
    await page.goto(`${env.emu.url}/settings/api`);
    const names = await page.locator("tbody tr td:first-child").allTextContents();
    expect(names).toEqual(["seed token"]); // the member's seeded token, not the owner's "owner token"

    // The owner's token id, from the owner's own page.
    const owner = await env.browser.newPage();
    await signIn(owner, env.emu, USERS.owner);
    await owner.goto(`${env.emu.url}/settings/api`);
    const action = await owner
      .getByRole("row", { name: /owner token/ })
      .locator("form")
      .getAttribute("action");
    const res = await postForm(page, action!, { _csrf: await csrfOf(page) });
    expect(res.status).toBe(404);
    const so = new SiteOps({ baseUrl: env.emu.url, apiToken: TOKENS.owner, maxRetries: 0 });
    await expect(so.me()).resolves.toMatchObject({ email: USERS.owner });
    await Promise.all([page.close(), owner.close()]);
  });

  it("refuses an empty token name with one message", async () => {
    const page = await env.browser.newPage();
    await signIn(page, env.emu, USERS.owner);
    const res = await postForm(page, "/settings/api/tokens", { name: "  ", _csrf: await csrfOf(page) });
    expect(res.status).toBe(422);
    expect(res.text).toContain("Token name must be 1 to 100 characters.");
    await page.close();
  });
});
