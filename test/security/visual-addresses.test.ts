// Issue 50's visual gate keeps the HTTP gate's rule (issue 48 item 2, common/addresses.ts): Chromium loads every
// page through the guarded proxy of visual/guarded-proxy.ts, so a site whose name resolves to a link-local or
// metadata address, and an allowed site that redirects there (by address or by name, http or https), are refused
// before anything connects to that address; the page's check fails naming the refusal, as the HTTP gate's reads,
// and no picture of it is taken. A resource of an allowed page (an iframe) pointing there is refused too, the page
// still shot. Loopback stays allowed, by address and by a name that resolves to it. Nothing here leaves the
// machine: the proxy's resolver is a stub, and the refused addresses are never connected to.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Viewport, VisualSettings } from "../../src/fleet.js";
import type { Site } from "../../src/index.js";
import { launchBrowser, type VisualBrowser } from "../../visual/browser.js";
import { createVisualGate } from "../../visual/gate.js";
import { createLimiter, shootSite } from "../../visual/site-check.js";
import { CHROMIUM, haveChromium } from "../support/chromium.js";
import { resolverStub as stub } from "./helpers.js";

const DESKTOP: Viewport = { name: "desktop", width: 800, height: 600, mobile: false };
const SETTINGS: VisualSettings = { paths: ["/"], viewports: [DESKTOP], ignore: [], threshold: 1, timeoutMs: 60_000, concurrency: 2 };
const LINK_LOCAL = "a link-local, metadata, unspecified or reserved address";

describe.runIf(haveChromium("test/security/visual-addresses"))("the visual check never loads a link-local address or a metadata service", () => {
  let browser: VisualBrowser;
  let server: Server;
  let port: number;
  let site: string;
  let dir: string;
  const requests: string[] = [];
  const lookup = stub({ "meta.test": ["169.254.169.254"], "mixed.test": ["127.0.0.1", "169.254.170.2"], "wp.test": ["127.0.0.1"] });
  const limit = createLimiter(2);
  /** The error of each page shot of `url` (or "captured"). */
  const shoot = async (url: string, paths = ["/"]) =>
    (await shootSite(browser, { id: "site_1", name: "Site", url }, { ...SETTINGS, paths }, limit)).map((s) => s.error ?? "captured");

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "siteops-visual-addresses-"));
    server = createServer((req, res) => {
      requests.push(`${req.headers.host} ${req.url}`);
      const to: Record<string, string> = {
        "/to-metadata": "http://169.254.169.254/latest/meta-data/",
        "/to-metadata-tls": "https://169.254.169.254/latest/meta-data/",
        "/to-v6": "http://[fe80::a9fe:a9fe]/",
        "/to-named": `http://meta.test:${port}/latest/meta-data/`,
        "/to-named-tls": `https://meta.test:${port}/`,
      };
      const location = to[req.url ?? ""];
      if (location) return res.writeHead(302, { location }).end();
      res.writeHead(200, { "content-type": "text/html" });
      if (req.url === "/framed") return res.end(`<h1>Framed</h1><iframe src="http://169.254.169.254/latest/meta-data/iam/"></iframe>`);
      res.end(`<html><body style="background:#fff"><h1>Just another WordPress site</h1></body></html>`);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
    site = `http://127.0.0.1:${port}`;
    browser = await launchBrowser(CHROMIUM, { lookup });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    server?.closeAllConnections();
    server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("a site whose name resolves to one is refused before anything connects; the check names the refusal", async () => {
    expect(await shoot(`http://meta.test:${port}/`)).toEqual([`refused: meta.test resolves to 169.254.169.254, ${LINK_LOCAL}`]);
    // One refused address refuses the name: the loopback one it also has (this test's server) gets nothing.
    expect(await shoot(`http://mixed.test:${port}/`)).toEqual([`refused: mixed.test resolves to 169.254.170.2, ${LINK_LOCAL}`]);
    expect(requests.filter((r) => r.startsWith("mixed.test") || r.startsWith("meta.test"))).toEqual([]);
    // The rollout's gate: the site's check before the upgrade fails with that reason, no picture kept.
    const gate = createVisualGate(browser, SETTINGS, path.join(dir, "gate"));
    const site1: Site = {
      ...{ id: "site_1", name: "Meta", url: `http://meta.test:${port}`, status: "healthy", wp_version: "6.7", php_version: "8.3" },
      ...{ created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z" },
    };
    expect(await gate.before(site1)).toBe(`GET / (desktop): not captured before the upgrade: refused: meta.test resolves to 169.254.169.254, ${LINK_LOCAL}`);
    expect(gate.hasBefore(site1)).toBe(false);
  }, 120_000);

  it("a site at such an address is refused: Chromium's own bypass of link-local literals does not apply", async () => {
    expect(await shoot("http://169.254.169.254/latest/meta-data/")).toEqual([`refused: 169.254.169.254 is ${LINK_LOCAL}`]);
    expect(await shoot("https://[fd00:ec2::254]/")).toEqual([`refused: fd00:ec2::254 is ${LINK_LOCAL}`]);
  }, 120_000);

  it("every redirect hop is checked: an allowed site redirecting there, by address or by name, http or https, is refused", async () => {
    expect(await shoot(site, ["/to-metadata", "/to-metadata-tls", "/to-v6", "/to-named", "/to-named-tls"])).toEqual([
      `refused (redirected to http://169.254.169.254): 169.254.169.254 is ${LINK_LOCAL}`,
      `refused (redirected to https://169.254.169.254): 169.254.169.254 is ${LINK_LOCAL}`,
      `refused (redirected to http://[fe80::a9fe:a9fe]): fe80::a9fe:a9fe is ${LINK_LOCAL}`,
      `refused (redirected to http://meta.test:${port}): meta.test resolves to 169.254.169.254, ${LINK_LOCAL}`,
      `refused (redirected to https://meta.test:${port}): meta.test resolves to 169.254.169.254, ${LINK_LOCAL}`,
    ]);
    expect(requests).toEqual(expect.arrayContaining([`127.0.0.1:${port} /to-metadata`, `127.0.0.1:${port} /to-named-tls`]));
    expect(requests.filter((r) => r.startsWith("meta.test"))).toEqual([]);
  }, 120_000);

  it("an allowed local page is still captured, by address and by a name resolving to loopback; a frame pointing at a metadata address is refused", async () => {
    const shots = await shootSite(browser, { id: "site_2", name: "Local", url: site }, { ...SETTINGS, paths: ["/", "/framed"] }, limit);
    expect(shots.map((s) => [s.error, s.capture?.status, s.capture?.width])).toEqual([
      [undefined, 200, DESKTOP.width],
      [undefined, 200, DESKTOP.width],
    ]);
    expect(browser.proxyProblem("http://169.254.169.254/latest/meta-data/iam/")).toEqual({ refused: true, why: `169.254.169.254 is ${LINK_LOCAL}` });
    expect(await shoot(`http://wp.test:${port}/`)).toEqual(["captured"]);
    expect(requests).toContain(`wp.test:${port} /`);
    expect(lookup.asked).toEqual(expect.arrayContaining(["wp.test", "meta.test", "mixed.test"]));
  }, 120_000);
});
