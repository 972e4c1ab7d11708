// `siteops upgrade rollout --gate visual` as it will fail (issue 50 items 1 and 5): the built CLI, Debian's Chromium,
// the emulator, and themed loopback WordPress sites whose look changes once the emulator has upgraded them
// (test/support/wordpress-theme.ts). A canary whose stylesheet the upgrade dropped stops the rollout (exit 5): its
// diff images and report written, the report, the Slack notification and the output naming its failing pages, and no site
// of a later wave touched (no pipeline, not one request to it). An unchanged fleet with a clock masked passes with
// every page 0 % changed. A page that cannot be shot before the upgrade fails its site with no pipeline opened; the
// visual flags without the gate, or the gate without a browser, are refused before any request.
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { PNG } from "pngjs";
import { afterEach, describe, expect, it } from "vitest";
import { parseWaves, planWaves } from "../../src/fleet.js";
import type { Site } from "../../src/index.js";
import { OWNER_TOKEN, startTestEmulator, type TestEmulator } from "../core/helpers.js";
import { CHROMIUM, haveChromium } from "../support/chromium.js";
import { startWordPressSites, type WordPressSites } from "../support/wordpress-sites.js";
import { CLOCK_SELECTOR, type WordPressLook } from "../support/wordpress-theme.js";
import { runCli, sandbox, startReceiver, type Sandbox } from "../cli/helpers.js";

/** The machine is shared: a page's time is not what these tests measure. */
const PATIENT = ["--visual-timeout", "5m"];
const SLOW = { timeoutMs: 900_000 };

interface Row {
  site: { id: string; name: string };
  wave: number | null;
  outcome: string;
  pipeline: { status: string } | null;
  checks: {
    gate: string;
    ok: boolean;
    detail: string;
    report?: string;
    pages?: { path: string; viewport: string; verdict: string; changed: number | null; files: { diff?: string } }[];
  }[];
  error: { code: string; message: string } | null;
}
interface Report {
  exit_code: number;
  outcome: string;
  waves: { wave: number; verdict: string }[];
  results: Row[];
  visual?: {
    report: string;
    dir: string;
    failing: { site: { id: string }; path: string; viewport: string; changed: number; detail: string; report: string }[];
  };
}

describe.runIf(haveChromium("test/visual"))("siteops upgrade rollout --gate visual (Chromium)", () => {
  let emu: TestEmulator;
  let box: Sandbox;
  let wordpress: WordPressSites | undefined;
  afterEach(async () => {
    await wordpress?.close();
    wordpress = undefined;
    box?.cleanup();
    await emu?.close();
  });

  /** `looks.length` themed sites at WordPress 6.5, each showing its look after the upgrade once the emulator says so. */
  async function fleet(looks: WordPressLook[]): Promise<{ sites: Site[]; env: NodeJS.ProcessEnv; server: (s: Site) => WordPressSites[number] }> {
    emu = await startTestEmulator();
    box = sandbox();
    wordpress = await startWordPressSites(looks.length, { look: "theme" });
    const sites: Site[] = [];
    for (const [i, body] of wordpress.seedSites("Themed").entries()) {
      const site = await emu.so.sites.create(body);
      sites.push(site);
      wordpress[i]!.lookAfterUpgrade = looks[i];
      wordpress[i]!.upgradedWhen = async () => (await emu.so.sites.get(site.id)).wp_version === "6.8";
    }
    const byUrl = new Map(wordpress.map((w) => [w.url, w]));
    const env = { ...box.env, SITEOPS_BASE_URL: emu.url, SITEOPS_API_TOKEN: OWNER_TOKEN, SITEOPS_POLL_INTERVAL_MS: "20", SITEOPS_BROWSER: CHROMIUM };
    return { sites, env, server: (s) => byUrl.get(s.url.replace(/\/$/, ""))! };
  }
  const siteFlags = (sites: readonly Site[]) => sites.flatMap((s) => ["--site", s.id]);

  it("a canary whose stylesheet the upgrade dropped stops the rollout (exit 5): diff written, pages named, later waves untouched", async () => {
    const waves = "1,50%,100%";
    // Plan first, then give the canary the look that breaks.
    const { sites, env, server } = await fleet(Array.from({ length: 5 }, () => "theme"));
    const plan = planWaves(sites, parseWaves(waves), { wp: "6.8" });
    const canary = plan[0]![0]!;
    server(canary).lookAfterUpgrade = "stylesheet-dropped";
    const artifacts = path.join(box.dir, "visual");
    const file = path.join(box.dir, "rollout.json");
    const hook = await startReceiver("/hooks/visual");
    const r = await runCli(
      [
        "upgrade",
        "rollout",
        ...siteFlags(sites),
        "--to-wp",
        "6.8",
        "--waves",
        waves,
        "--gate",
        "pipeline,visual",
        "--visual-ignore",
        CLOCK_SELECTOR,
        "--artifacts",
        artifacts,
        "--report",
        file,
        "--notify",
        hook.url,
        "--notify-format",
        "slack",
        ...PATIENT,
      ],
      { env, ...SLOW },
    );
    await hook.close();
    expect(r.code, r.stderr).toBe(5);
    const doc = JSON.parse(readFileSync(file, "utf8")) as Report;
    expect(doc.waves.map((w) => w.verdict)).toEqual(["stopped", "not_started", "not_started"]);
    const first = doc.results.find((x) => x.site.id === canary.id)!;
    expect(first).toMatchObject({ outcome: "failed", pipeline: { status: "succeeded" }, error: { code: "GATE_FAILED" } });
    expect(first.error!.message).toMatch(
      /^GET \/ \(desktop\): [\d.]+ % changed, over the 1 % threshold; GET \/ \(mobile\): [\d.]+ % changed, over the 1 % threshold$/,
    );
    const visual = first.checks.find((c) => c.gate === "visual")!;
    expect(visual.ok).toBe(false);
    expect(visual.pages!.map((p) => [p.viewport, p.verdict])).toEqual([
      ["desktop", "failed"],
      ["mobile", "failed"],
    ]);
    // The diff images and the site's report, where the report says.
    for (const p of visual.pages!) {
      const diff = PNG.sync.read(readFileSync(path.join(artifacts, p.files.diff!)));
      expect(diff.width).toBeGreaterThan(0);
    }
    expect(readFileSync(path.join(artifacts, visual.report!), "utf8")).toContain("Themed");
    expect(doc.visual!.report).toBe(path.join(artifacts, "report.html"));
    expect(doc.visual!.failing.map((f) => [f.site.id, f.path, f.viewport])).toEqual([
      [canary.id, "/", "desktop"],
      [canary.id, "/", "mobile"],
    ]);
    expect(r.stderr).toContain(`visual report: ${artifacts}/report.html (2 pages failed)`);
    expect(r.stderr).toMatch(/error: .*Themed \d: failed: GET \/ \(desktop\): [\d.]+ % changed, over the 1 % threshold/);
    // The notification names the failing pages and where the report is.
    const told = (JSON.parse(hook.bodies[0]!) as { text: string }).text;
    expect(told).toContain(`visual report (before | after | diff): \`${artifacts}/report.html\``);
    expect(told).toMatch(/• \*Themed \d\* \(`[^`]+`\): GET \/ \(desktop\): [\d.]+ % changed, over the 1 % threshold; GET \/ \(mobile\)/);
    // No site of a later wave was touched: no pipeline, not one request to it (no screenshot either).
    for (const site of plan.slice(1).flat()) {
      expect(await emu.so.upgradePipelines.list(site.id).toArray()).toEqual([]);
      expect(server(site).requests).toEqual([]);
    }
  }, 900_000);

  it("an unchanged fleet with a clock masked passes: every page 0 % changed (exit 0)", async () => {
    const { sites, env } = await fleet(["theme", "footer-version"]);
    const file = path.join(box.dir, "rollout.json");
    const artifacts = path.join(box.dir, "visual");
    const r = await runCli(
      [
        "upgrade",
        "rollout",
        ...siteFlags(sites),
        "--to-wp",
        "6.8",
        "--waves",
        "100%",
        "--gate",
        "pipeline,visual",
        "--viewport",
        "desktop",
        "--visual-ignore",
        CLOCK_SELECTOR,
        "--artifacts",
        artifacts,
        "--report",
        file,
        ...PATIENT,
      ],
      { env, ...SLOW },
    );
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(readFileSync(file, "utf8")) as Report;
    const pages = doc.results
      .map((x) => x.checks.find((c) => c.gate === "visual")!.pages!.map((p) => [x.site.name, p.verdict, p.changed === 0]))
      .sort((a, b) => String(a[0]![0]).localeCompare(String(b[0]![0])));
    // Themed 1 unchanged: 0 %; Themed 2's footer names the new version: a change under the threshold.
    expect(pages.flat()).toEqual([
      ["Themed 1", "passed", true],
      ["Themed 2", "passed", false],
    ]);
    expect(doc.visual!.failing).toEqual([]);
    expect(readFileSync(path.join(artifacts, "report.html"), "utf8")).toContain("2 sites unchanged");
  }, 900_000);

  it("a page that cannot be shot before the upgrade fails its site with no pipeline opened", async () => {
    const { env } = await fleet(["theme"]);
    // A site whose URL nothing answers on: a port that was free a moment ago.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const down = await emu.so.sites.create({ name: "Down", url: `http://127.0.0.1:${port}`, wp_version: "6.5" });
    const file = path.join(box.dir, "rollout.json");
    const r = await runCli(
      [
        "upgrade",
        "rollout",
        "--site",
        down.id,
        "--to-wp",
        "6.8",
        "--waves",
        "100%",
        "--gate",
        "pipeline,visual",
        "--viewport",
        "desktop",
        "--artifacts",
        path.join(box.dir, "v"),
        "--report",
        file,
        ...PATIENT,
      ],
      { env, ...SLOW },
    );
    expect(r.code, r.stderr).toBe(5);
    const row = (JSON.parse(readFileSync(file, "utf8")) as Report).results[0]!;
    expect(row).toMatchObject({ outcome: "failed", pipeline: null, error: { code: "GATE_FAILED" } });
    expect(row.error!.message).toMatch(/^GET \/ \(desktop\): not captured before the upgrade: .*ERR_CONNECTION_REFUSED.*; no pipeline opened$/);
    expect(await emu.so.upgradePipelines.list(down.id).toArray()).toEqual([]);
  }, 600_000);

  it("refuses the visual flags without the gate, and the gate without a browser, before any request (exit 2); a dry run needs none", async () => {
    const { sites, env } = await fleet(["theme"]);
    const base = ["upgrade", "rollout", "--site", sites[0]!.id, "--to-wp", "6.8"];
    const cases: [string[], NodeJS.ProcessEnv, string][] = [
      [[...base, "--visual-threshold", "2"], env, "error: --visual-threshold is for the visual gate: add visual to --gate\n"],
      [
        [...base, "--gate", "pipeline,visual", "--visual-threshold", "lots"],
        env,
        'error: --visual-threshold must be a share of the page in percent, such as 1 or 0.5%, not "lots"\n',
      ],
      [
        [...base, "--gate", "visual", "--viewport", "watch"],
        env,
        expect.stringMatching(/^error: --viewport must be desktop, mobile or WIDTHxHEIGHT/) as unknown as string,
      ],
      [
        [...base, "--gate", "pipeline,visual"],
        { ...env, SITEOPS_BROWSER: "/no/chrome" },
        expect.stringMatching(/^error: SITEOPS_BROWSER "\/no\/chrome" is not an executable file: install Chrome or Chromium/) as unknown as string,
      ],
    ];
    for (const [args, e, stderr] of cases) {
      const r = await runCli(args, { env: e });
      expect([args.join(" "), r.code, r.stderr]).toEqual([args.join(" "), 2, stderr]);
    }
    // A dry run shoots nothing: no browser is started, none is needed.
    const dry = await runCli([...base, "--gate", "pipeline,visual", "--dry-run"], { env: { ...env, SITEOPS_BROWSER: "/no/chrome" } });
    expect([dry.code, dry.stderr]).toEqual([0, expect.not.stringContaining("error")]);
    expect(dry.stdout).toContain(sites[0]!.id);
    expect(await emu.so.upgradePipelines.list(sites[0]!.id).toArray()).toEqual([]);
    expect(existsSync(path.join(box.dir, ".local", "state", "siteops", "visual"))).toBe(false);
  }, 300_000);
});
