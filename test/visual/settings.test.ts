// What a visual check is told, checked before anything runs (visual/settings.ts), the file names of its pictures
// (visual/artifacts.ts), and how it finds a browser (visual/browser.ts): --browser, $SITEOPS_BROWSER, the usual names
// on PATH, each way of missing one a line that says how to get one. No browser is started here.
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { pageFiles, pageStems, siteFolder } from "../../visual/artifacts.js";
import { findBrowser, howToGetABrowser, VisualSetupError } from "../../visual/browser.js";
import { DEFAULT_VIEWPORTS, parsePagePath, parseSelector, parseThreshold, parseViewport, parseViewports } from "../../src/fleet.js";
import { removeDir, tempDir } from "../support/temp.js";

describe("settings", () => {
  it("reads viewports by name or size, desktop and mobile by default", () => {
    expect(parseViewports([]).map((v) => v.name)).toEqual(["desktop", "mobile"]);
    expect(DEFAULT_VIEWPORTS.map((v) => [v.width, v.height, v.mobile])).toEqual([
      [1280, 800, false],
      [390, 844, true],
    ]);
    expect(parseViewports(["mobile,1024x768", "mobile:412x915", "desktop", "MOBILE"]).map((v) => [v.name, v.width, v.height, v.mobile])).toEqual([
      ["mobile", 390, 844, true],
      ["1024x768", 1024, 768, false],
      ["mobile-412x915", 412, 915, true],
      ["desktop", 1280, 800, false],
    ]);
    for (const bad of ["tablet", "100x100", "5000x800", "1280 x 800", "x800", ""])
      expect(() => parseViewport(bad)).toThrow(/must be desktop, mobile or WIDTHxHEIGHT between 200 and 4000/);
  });

  it("reads a threshold in percent, with or without %", () => {
    expect(["1", "0.5", "2.5%", " 0 ", ".25", "100"].map(parseThreshold)).toEqual([1, 0.5, 2.5, 0, 0.25, 100]);
    for (const bad of ["-1", "101", "0.01.2", "one", "", "1e2"]) expect(() => parseThreshold(bad)).toThrow(/must be a share of the page in percent/);
  });

  it("takes one selector per mask and paths that start with /", () => {
    expect(parseSelector(" .site-clock ")).toBe(".site-clock");
    for (const bad of ["", "  ", ".a\n.b"]) expect(() => parseSelector(bad)).toThrow(/must be one CSS selector/);
    expect(parsePagePath("/shop?x=1")).toBe("/shop?x=1");
    for (const bad of ["shop", "/a b", "https://x.test/"]) expect(() => parsePagePath(bad)).toThrow(/must be a path starting with \//);
  });
});

describe("file names", () => {
  it("names a page by its path, adding a hash where the name loses something or two would meet", () => {
    expect(pageStems(["/", "/shop", "/shop/cart", "/about_us"])).toEqual(["home", "shop", "shop-cart", "about_us"]);
    const stems = pageStems(["/", "/shop", "/shop/", "/shop-cart", "/a b?c=1", "/shop.html"]);
    expect(stems[0]).toBe("home");
    // "/shop" and "/shop/" would both be "shop": each gets its hash.
    expect(stems.slice(1)).toEqual([
      expect.stringMatching(/^shop-[0-9a-f]{8}$/),
      expect.stringMatching(/^shop-[0-9a-f]{8}$/),
      expect.stringMatching(/^shop-cart-[0-9a-f]{8}$/),
      expect.stringMatching(/^a-b-c-1-[0-9a-f]{8}$/),
      expect.stringMatching(/^shop.html-[0-9a-f]{8}$/),
    ]);
    expect(new Set(stems).size).toBe(stems.length);
    expect(pageStems(["/shop"])).toEqual(pageStems(["/shop"])); // the same on every run: a baseline is found again
  });

  it("keeps a site's files in a folder named by its id, never a path outside the folder", () => {
    expect(pageFiles("site_abc", "home", "mobile")).toEqual({
      baseline: "site_abc/home@mobile.png",
      before: "site_abc/home@mobile.before.png",
      after: "site_abc/home@mobile.after.png",
      diff: "site_abc/home@mobile.diff.png",
    });
    expect(siteFolder("../../etc")).toMatch(/^-etc-[0-9a-f]{8}$/);
    expect(pageStems(["/../../x"])[0]).toMatch(/^x-[0-9a-f]{8}$/);
  });
});

describe("findBrowser", () => {
  const dir = tempDir("visual-browser");
  afterAll(() => removeDir(dir));
  const bin = path.join(dir, "bin");
  mkdirSync(bin);
  const executable = (name: string) => {
    const file = path.join(bin, name);
    writeFileSync(file, "#!/bin/sh\n");
    chmodSync(file, 0o755);
    return file;
  };

  it("takes --browser, then SITEOPS_BROWSER, then google-chrome before chromium on PATH", () => {
    const chromium = executable("chromium");
    expect(findBrowser(undefined, { PATH: bin }, "linux")).toBe(chromium);
    const chrome = executable("google-chrome");
    expect(findBrowser(undefined, { PATH: `/nowhere:${bin}` }, "linux")).toBe(chrome);
    expect(findBrowser(undefined, { PATH: bin, SITEOPS_BROWSER: chromium }, "linux")).toBe(chromium);
    expect(findBrowser(chromium, { PATH: bin, SITEOPS_BROWSER: chrome }, "linux")).toBe(chromium);
  });

  it("says in one line how to get a browser when none is found or the one given is not there", () => {
    // macOS's install places: Linux's exist on a machine with Debian's chromium (/usr/lib/chromium/chromium).
    const none = () => findBrowser(undefined, { PATH: path.join(dir, "empty") }, "darwin");
    expect(none).toThrow(VisualSetupError);
    expect(none).toThrow(
      `no Chrome or Chromium found (looked for google-chrome, google-chrome-stable, chromium, chromium-browser, chrome on PATH): ${howToGetABrowser()}`,
    );
    expect(howToGetABrowser()).toMatch(/apt-get install chromium.*give its path with --browser or SITEOPS_BROWSER$/);
    expect(() => findBrowser("/no/such/chrome", {}, "linux")).toThrow(`--browser "/no/such/chrome" is not an executable file: ${howToGetABrowser()}`);
    // The action names its input.
    expect(() => findBrowser("/no/such/chrome", {}, "linux", "'browser'")).toThrow(
      `'browser' "/no/such/chrome" is not an executable file: ${howToGetABrowser("'browser'")}`,
    );
    writeFileSync(path.join(dir, "not-executable"), "");
    expect(() => findBrowser(undefined, { SITEOPS_BROWSER: path.join(dir, "not-executable") }, "linux")).toThrow(
      /^SITEOPS_BROWSER ".*not-executable" is not an executable file/,
    );
    expect(() => findBrowser(undefined, { SITEOPS_BROWSER: bin }, "linux")).toThrow(/is not an executable file/); // a folder
  });
});
