// `siteops visual capture|compare` as a user runs them (the built CLI, Debian's Chromium, the emulator, the themed
// stand-ins of test/support/wordpress-sites.ts): a baseline taken, compared unchanged (exit 0), then compared after
// an upgrade made elsewhere (`siteops upgrade open`) that dropped one site's stylesheet: exit 1 naming its page,
// its diff image and report written, the site whose footer names the new version passing. One viewport: what is
// seen per viewport is test/visual/noise.test.ts's, what the rollout does with two is test/visual/rollout.test.ts's.
// And what is refused before a page is shot: no browser, bad flags, no baseline, a site without one.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { PNG } from "pngjs";
import { beforeAll, describe, expect, it } from "vitest";
import type { CompareRecord } from "../../cli/commands/visual/records.js";
import type { Site } from "../../src/index.js";
import { CHROMIUM, haveChromium } from "../support/chromium.js";
import { startWordPressSites, type WordPressSites } from "../support/wordpress-sites.js";
import { CLOCK_SELECTOR, type WordPressLook } from "../support/wordpress-theme.js";
import { runCli, useTestBed } from "../cli/helpers.js";

const LOOKS: WordPressLook[] = ["stylesheet-dropped", "footer-version"];
const SLOW = { timeoutMs: 600_000 };
/** The machine is shared: a page's time and the pages at a time are not what these tests measure. */
const PATIENT = ["--visual-timeout", "5m", "--concurrency", "2"];
const VIEWPORT = "desktop";

describe.runIf(haveChromium("test/visual"))("siteops visual capture|compare (Chromium)", () => {
  const bed = useTestBed();
  let wordpress: WordPressSites;
  let sites: Site[];
  let env: NodeJS.ProcessEnv;
  const dir = (name: string) => path.join(bed.box.dir, name);

  beforeAll(async () => {
    env = { ...bed.env, SITEOPS_BROWSER: CHROMIUM };
    wordpress = await startWordPressSites(LOOKS.length, { look: "theme" });
    sites = [];
    for (const [i, body] of wordpress.seedSites("Themed").entries()) {
      const site = await bed.emu.so.sites.create(body);
      sites.push(site);
      wordpress[i]!.lookAfterUpgrade = LOOKS[i];
      // The site shows its look after the upgrade once the service says it is at the new version.
      wordpress[i]!.upgradedWhen = async () => (await bed.emu.so.sites.get(site.id)).wp_version === "6.8";
    }
    return () => wordpress.close();
  });

  it("takes a baseline, compares it unchanged (exit 0), then after an upgrade made elsewhere fails the page that broke (exit 1)", async () => {
    const siteFlags = sites.flatMap((s) => ["--site", s.id]);
    const capture = await runCli(
      ["visual", "capture", ...siteFlags, "--viewport", VIEWPORT, "--visual-ignore", CLOCK_SELECTOR, "--out", dir("baseline"), ...PATIENT],
      { env, ...SLOW },
    );
    expect(capture.code, capture.stderr).toBe(0);
    expect(capture.stderr).toContain(
      `baseline: 2 of 2 pages of 2 sites in ${dir("baseline")}; compare later with: siteops visual compare --baseline ${dir("baseline")}`,
    );
    const taken = (s: Site, viewport: string) => existsSync(path.join(dir("baseline"), s.id, `home@${viewport}.png`));
    for (const s of sites) expect([taken(s, VIEWPORT), taken(s, "mobile")]).toEqual([true, false]);
    const manifest = JSON.parse(readFileSync(path.join(dir("baseline"), "visual.json"), "utf8"));
    expect([manifest.kind, manifest.paths, manifest.ignore, manifest.viewports.map((v: { name: string }) => v.name)]).toEqual([
      "baseline",
      ["/"],
      [CLOCK_SELECTOR],
      [VIEWPORT],
    ]);

    const same = await runCli(["visual", "compare", "--baseline", dir("baseline"), "--out", dir("same"), ...PATIENT], { env, ...SLOW });
    expect(same.code, same.stderr).toBe(0);
    expect(same.stdout.trim().split("\n")).toHaveLength(2);
    expect(same.stdout).not.toContain("failed");
    expect(same.stderr).toContain(`2 sites within 1 %; report: ${dir("same")}/report.html`);

    for (const s of sites) {
      const open = await runCli(["upgrade", "open", "--site", s.id, "--wp", "6.8", "--no-require-approval"], { env });
      expect(open.code, open.stderr).toBe(0);
    }
    const after = await runCli(["visual", "compare", "--baseline", dir("baseline"), "--out", dir("after"), "--json", ...PATIENT], { env, ...SLOW });
    expect(after.code, after.stderr).toBe(1);
    const records = JSON.parse(after.stdout) as CompareRecord[];
    const verdicts = records.map((r) => [r.site.id, r.viewport, r.verdict]);
    expect(verdicts).toEqual(sites.map((s, i) => [s.id, VIEWPORT, LOOKS[i] === "stylesheet-dropped" ? "failed" : "passed"]));
    const broken = records.filter((r) => r.verdict === "failed");
    for (const r of broken) {
      expect(r.detail).toMatch(new RegExp(`^GET / \\(${r.viewport}\\): [\\d.]+ % changed, over the 1 % threshold$`));
      expect(r.changed).toBeGreaterThan(1);
      const diff = PNG.sync.read(readFileSync(r.diff!));
      expect(diff.width).toBeGreaterThan(0);
      for (const file of [r.before!, r.after!]) expect(readFileSync(file).subarray(1, 4).toString()).toBe("PNG");
    }
    expect(after.stderr).toMatch(new RegExp(`error: Themed 1 \\(${sites[0]!.id}\\): GET / \\(desktop\\): [\\d.]+ % changed, over the 1 % threshold`));
    const report = readFileSync(broken[0]!.report, "utf8");
    expect(report).toContain('<h1>Themed 1: <span class="failed">failed</span></h1>');
    expect((report.match(/src="data:image\/png;base64,/g) ?? []).length).toBe(3); // before, after, diff
    expect(readFileSync(path.join(dir("after"), "report.html"), "utf8")).toContain("1 of 2 sites changed beyond the threshold or not compared");

    // Narrowed (by name) to the site that did not break: exit 0.
    const narrowed = await runCli(["visual", "compare", "--baseline", dir("baseline"), "--out", dir("narrowed"), "--site", sites[1]!.name, ...PATIENT], {
      env,
      ...SLOW,
    });
    expect(narrowed.code, narrowed.stderr).toBe(0);
    expect(narrowed.stderr).toContain("1 site within 1 %");
  }, 900_000);

  it("refuses before a page is shot: no browser, bad flags, no baseline, a site without one (exit 2, one line)", async () => {
    const base = ["visual", "capture", "--site", sites[0]!.id, "--out", dir("refused")];
    const cases: [string[], NodeJS.ProcessEnv, RegExp][] = [
      [
        base,
        { ...env, SITEOPS_BROWSER: "/no/chrome" },
        /^error: SITEOPS_BROWSER "\/no\/chrome" is not an executable file: install Chrome or Chromium .* or give its path with --browser or SITEOPS_BROWSER\n$/,
      ],
      [[...base, "--browser", "/no/chrome"], env, /^error: --browser "\/no\/chrome" is not an executable file: /],
      [[...base, "--visual-ignore", ""], env, /^error: --visual-ignore must be one CSS selector such as .site-clock, not ""\n$/],
      [[...base, "--viewport", "tablet"], env, /^error: --viewport must be desktop, mobile or WIDTHxHEIGHT/],
      [[...base, "--check-path", "shop"], env, /^error: --check-path must be a path starting with \/, not "shop"\n$/],
      [
        ["visual", "compare", "--baseline", dir("none")],
        env,
        /^error: --baseline: .*none holds no baseline \(no visual.json\): take one with siteops visual capture --out /,
      ],
      [
        ["visual", "compare", "--visual-threshold", "2 percent"],
        env,
        /^error: --visual-threshold must be a share of the page in percent, such as 1 or 0.5%, not "2 percent"\n$/,
      ],
    ];
    for (const [args, e, message] of cases) {
      const r = await runCli(args, { env: e });
      expect([args.join(" "), r.code]).toEqual([args.join(" "), 2]);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe("");
    }
    expect(existsSync(dir("refused"))).toBe(false);
    // A site the baseline does not hold.
    const other = await bed.emu.so.sites.create({ name: "Unshot", url: "https://unshot.example.test" });
    const r = await runCli(["visual", "compare", "--baseline", dir("baseline"), "--site", other.id], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: no baseline of Unshot (${other.id}): take one with siteops visual capture\n`);
  }, 300_000);
});
