// The console's whole journey in a real browser: sign in, create a token in Settings -> API, paste it into the
// GitHub Action (its bundled dist/index.js, run as the runner runs it), watch the action's snapshot complete in
// the open site page, and approve the upgrade the action opened in the page; the service then runs it to success.
import { describe, expect, it } from "vitest";
import { SiteOps } from "../../src/index.js";
import { runAction } from "../action/run-action.js";
import { TOKENS, USERS, haveChromium, screenshot, signIn, useConsoleEnv } from "./helpers.js";

describe.runIf(haveChromium())("console journey: token -> action -> approve in the page (Chromium)", () => {
  const env = useConsoleEnv();

  it("drives the GitHub Action with a token made in the page, shows its snapshot complete, approves its upgrade", async () => {
    const owner = new SiteOps({ baseUrl: env.emu.url, apiToken: TOKENS.owner, maxRetries: 0 });
    const site = await owner.sites.create({ name: "Journey blog", url: "https://journey.agency.example", wp_version: "6.4", php_version: "8.1" });

    const page = await env.browser.newPage({ viewport: { width: 1100, height: 900 } });
    await signIn(page, env.emu, USERS.admin);
    await page.getByRole("link", { name: "Settings" }).click();
    await page.getByLabel("Token name").fill("Deploy workflow");
    await page.getByRole("button", { name: "Create token" }).click();
    const token = await page.getByLabel("Token", { exact: true }).inputValue();
    expect(token).toMatch(/^sot_/);

    // The site page stays open while the action runs: the snapshot appears and completes without a reload.
    await page.goto(`${env.emu.url}/sites/${site.id}`);
    const marker = await page.evaluate(() => ((globalThis as unknown as { __loaded: number }).__loaded = 7));
    const inputs = { "api-token": token, "base-url": env.emu.url, site: "Journey blog" };
    const snapshot = await runAction({ ...inputs, command: "snapshot", description: "Before the upgrade" }, { SITEOPS_POLL_INTERVAL_MS: "20" });
    expect(snapshot.code, snapshot.stdout).toBe(0);
    const snapshotId = snapshot.outputs["snapshot-id"]!;
    expect(snapshotId).toMatch(/^snap_/);
    expect(snapshot.visible).not.toContain(token);
    await page.getByRole("row", { name: new RegExp(`${snapshotId}.*completed`) }).waitFor({ timeout: 15_000 });
    expect(await page.evaluate(() => (globalThis as unknown as { __loaded?: number }).__loaded)).toBe(marker);
    await expect(page.getByRole("row", { name: new RegExp(snapshotId) }).textContent()).resolves.toContain("Before the upgrade");

    const upgrade = await runAction({ ...inputs, command: "upgrade", "wp-version": "6.9", "require-approval": "true" }, { SITEOPS_POLL_INTERVAL_MS: "20" });
    expect(upgrade.code, upgrade.stdout).toBe(0);
    const pipelineId = upgrade.outputs["pipeline-id"]!;
    expect(upgrade.outputs.status).toBe("awaiting_approval");

    await page.goto(`${env.emu.url}/sites/${site.id}`);
    await page.getByLabel("Comment (optional)").fill("Approved after the snapshot");
    await screenshot(page, "journey-awaiting-approval");
    await page.getByRole("button", { name: "Approve upgrade" }).click();
    await expect(page.getByRole("status").textContent()).resolves.toBe(`Pipeline ${pipelineId} approved.`);

    // The token made in the page reads the outcome through the API: approved by the admin, then run to success.
    const so = new SiteOps({ baseUrl: env.emu.url, apiToken: token, maxRetries: 0 });
    await expect.poll(async () => (await so.upgradePipelines.get(site.id, pipelineId)).status, { timeout: 15_000 }).toBe("succeeded");
    const done = await so.upgradePipelines.get(site.id, pipelineId);
    expect(done).toMatchObject({ comment: "Approved after the snapshot", to_wp_version: "6.9" });
    expect(done.approved_by).toBe((await so.me()).id);
    expect((await so.sites.get(site.id)).wp_version).toBe("6.9");
    await Promise.all([page.close(), so.close(), owner.close()]);
  });
});
