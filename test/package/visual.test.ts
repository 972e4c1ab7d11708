// The visual check from the packed tarball as a user installs it (issue 50 item 3): without playwright-core, one
// line that says how to get it (exit 2, nothing asked of the service); with it installed beside siteops, the
// machine's Chromium takes a baseline of a site's pages and compares them. No browser is downloaded by either.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { HOW_TO_GET_PLAYWRIGHT } from "../../visual/browser.js";
import { CHROMIUM, haveChromium } from "../support/chromium.js";
import { startSeededEmulator } from "../support/emulator.js";
import { startWordPressSites, type WordPressSites } from "../support/wordpress-sites.js";
import { ROOT, Project } from "./helpers.js";

const TOKEN = "sot_visualPackageTest00000001";
const PLAYWRIGHT = (JSON.parse(readFileSync(path.join(ROOT, "node_modules/playwright-core/package.json"), "utf8")) as { version: string }).version;

describe("the visual check, installed from the tarball", () => {
  let project: Project;
  let emulator: RunningEmulator;
  let wordpress: WordPressSites;

  beforeAll(async () => {
    wordpress = await startWordPressSites(1, { look: "theme" });
    const seed = {
      accounts: [
        {
          name: "Visual",
          users: [{ email: "v@visual.test", password: "visual-pass-1", name: "V", role: "owner" as const }],
          api_tokens: [{ token: TOKEN, user_email: "v@visual.test" }],
          sites: wordpress.seedSites("Themed"),
        },
      ],
    };
    [project, emulator] = await Promise.all([Project.create("visual", ["siteops"]), startSeededEmulator(seed)]);
  }, 180_000);
  afterAll(async () => {
    await wordpress?.close();
    await emulator?.close();
    project?.remove();
  });

  it("says in one line how to install playwright-core when it is missing: exit 2, before any request", async () => {
    const r = await project.siteops(["visual", "capture", "--all"], { SITEOPS_BASE_URL: "http://127.0.0.1:9", SITEOPS_API_TOKEN: TOKEN });
    expect([r.code, r.stdout, r.stderr]).toEqual([2, "", `error: ${HOW_TO_GET_PLAYWRIGHT}\n`]);
  });

  it.runIf(haveChromium("test/package/visual"))(
    "with playwright-core installed beside siteops, takes a baseline and compares it with the machine's Chromium",
    async () => {
      const install = await project.exec("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", `playwright-core@${PLAYWRIGHT}`]);
      expect(install.code, install.stdout + install.stderr).toBe(0);
      const env = { SITEOPS_BASE_URL: emulator.url, SITEOPS_API_TOKEN: TOKEN, SITEOPS_BROWSER: CHROMIUM };
      const patient = ["--visual-timeout", "5m", "--concurrency", "2"];
      const capture = await project.siteops(
        ["visual", "capture", "--all", "--viewport", "desktop", "--visual-ignore", ".site-clock", "--out", "baseline", ...patient],
        env,
      );
      expect(capture.code, capture.stderr).toBe(0);
      const compare = await project.siteops(["visual", "compare", "--baseline", "baseline", "--out", "compare", "--json", ...patient], env);
      expect(compare.code, compare.stderr).toBe(0);
      const records = JSON.parse(compare.stdout) as { site: { name: string }; verdict: string; changed: number }[];
      expect(records.map((r) => [r.site.name, r.verdict, r.changed])).toEqual([["Themed 1", "passed", 0]]);
      expect(readFileSync(path.join(project.dir, "compare", "report.html"), "utf8")).toContain("1 site unchanged");
    },
    600_000,
  );
});
