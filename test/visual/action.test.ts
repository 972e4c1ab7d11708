// `command: rollout` with the visual gate, the bundled action run as the runner runs it (action/dist/index.js, which
// imports action/dist/visual.js and its bundled playwright-core only for this), Debian's Chromium as the runner's
// Chrome, the emulator and themed loopback WordPress sites: a canary whose stylesheet its upgrade dropped fails the
// step (status stopped) with its diff image in the artifacts folder, the summary naming its failing page and
// pointing at the report, the later sites untouched; without a browser the step fails at once, having opened nothing.
// One viewport (the `viewports` input): what is seen per viewport is test/visual/noise.test.ts's.
import { readFileSync } from "node:fs";
import path from "node:path";
import { PNG } from "pngjs";
import { afterEach, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { parseWaves, planWaves } from "../../src/fleet.js";
import { SiteOps, type Site } from "../../src/index.js";
import { CHROMIUM, haveChromium } from "../support/chromium.js";
import { startSeededEmulator } from "../support/emulator.js";
import { removeDir, tempDir } from "../support/temp.js";
import { startWordPressSites, type WordPressSites } from "../support/wordpress-sites.js";
import { CLOCK_SELECTOR } from "../support/wordpress-theme.js";
import { runAction } from "../action/run-action.js";

const TOKEN = "sot_actionVisualTestToken00001";

describe.runIf(haveChromium("test/visual"))("the action's rollout with the visual gate (Chromium)", () => {
  let emu: RunningEmulator;
  let client: SiteOps;
  let wordpress: WordPressSites;
  afterEach(async () => {
    await client?.close();
    await emu?.close();
    await wordpress?.close();
  });

  async function fleet(n: number): Promise<Site[]> {
    wordpress = await startWordPressSites(n, { look: "theme" });
    emu = await startSeededEmulator({
      accounts: [
        {
          name: "Visual",
          users: [{ email: "owner@visual.test", password: "owner-password-1", name: "Owner", role: "owner" }],
          api_tokens: [{ token: TOKEN, user_email: "owner@visual.test" }],
          sites: wordpress.seedSites("Themed"),
        },
      ],
    });
    client = new SiteOps({ baseUrl: emu.url, apiToken: TOKEN });
    const sites = await client.sites.list({ per_page: 100 }).toArray();
    for (const site of sites) {
      const server = wordpress.find((w) => w.url === site.url.replace(/\/$/, ""))!;
      server.upgradedWhen = async () => (await client.sites.get(site.id)).wp_version === "6.8";
    }
    return sites;
  }
  const serverOf = (site: Site) => wordpress.find((w) => w.url === site.url.replace(/\/$/, ""))!;
  const inputs = (extra: Record<string, string>) => ({
    "api-token": TOKEN,
    "base-url": emu.url,
    command: "rollout",
    site: "all",
    "wp-version": "6.8",
    gates: "pipeline,visual",
    "visual-ignore": CLOCK_SELECTOR,
    "visual-timeout-seconds": "300",
    viewports: "desktop",
    ...extra,
  });

  it("a canary whose stylesheet was dropped fails the step: diff written, pages named in the summary, later sites untouched", async () => {
    const sites = await fleet(3);
    const plan = planWaves(sites, parseWaves("1,100%"), { wp: "6.8" });
    const canary = plan[0]![0]!;
    serverOf(canary).lookAfterUpgrade = "stylesheet-dropped";
    // An absolute folder: the runner's workspace (a temp dir of runAction's) is gone once the step ends.
    const artifacts = path.join(tempDir("action-visual"), "visual");
    const run = await runAction(inputs({ waves: "1,100%", artifacts }), { SITEOPS_POLL_INTERVAL_MS: "20", SITEOPS_BROWSER: CHROMIUM });
    expect([run.code, run.outputs.status], run.stdout).toEqual([1, "stopped"]);
    const result = JSON.parse(run.outputs.result!) as {
      visual: { report: string; dir: string; failing: { site: { id: string }; path: string; viewport: string; report: string }[] };
      results: { site: { id: string }; outcome: string; checks: { gate: string; pages?: { files: { diff?: string } }[] }[] }[];
    };
    expect(result.visual.failing.map((f) => [f.site.id, f.path, f.viewport])).toEqual([[canary.id, "/", "desktop"]]);
    expect(run.outputs["visual-report"]).toBe(result.visual.report);
    expect(result.visual.dir).toBe(artifacts);
    const pages = result.results.find((r) => r.site.id === canary.id)!.checks.find((c) => c.gate === "visual")!.pages!;
    expect(pages).toHaveLength(1);
    for (const p of pages) expect(PNG.sync.read(readFileSync(path.join(result.visual.dir, p.files.diff!))).width).toBeGreaterThan(0);
    expect(run.summary).toContain("<h4>Visual gate: 1 page failed</h4>");
    expect(run.summary).toMatch(/GET \/ \(desktop\): [\d.]+ % changed, over the 1 % threshold/);
    expect(run.summary).toContain('<a href="https://github.com/acme/website/actions/runs/4242#artifacts">');
    // (`%` is written `%25` in a workflow command; the runner shows `%`.)
    expect(run.errors.at(-1)?.replace(/%25/g, "%")).toMatch(
      /^The rollout to WordPress 6\.8 stopped at wave 1: 1 failed of 1, at most 0 allowed: .* 1 site failed: GET \/ \(desktop\) changed beyond the 1 % threshold \(Themed \d\)\.$/,
    );
    for (const site of plan[1]!) {
      expect(await client.upgradePipelines.list(site.id).toArray()).toEqual([]);
      expect(serverOf(site).requests).toEqual([]);
    }
    removeDir(path.dirname(artifacts));
  }, 900_000);

  it("without a browser the step fails at once, having opened nothing", async () => {
    const sites = await fleet(1);
    const run = await runAction(inputs({ browser: "/no/chrome" }), { SITEOPS_POLL_INTERVAL_MS: "20" });
    expect(run.code).toBe(1);
    expect(run.errors).toEqual([
      expect.stringMatching(
        /^The visual gate cannot run: 'browser' "\/no\/chrome" is not an executable file: install Chrome or Chromium .* give its path with 'browser' or SITEOPS_BROWSER\. No pipeline was opened\.$/,
      ),
    ]);
    expect(await client.upgradePipelines.list(sites[0]!.id).toArray()).toEqual([]);
  }, 300_000);
});
