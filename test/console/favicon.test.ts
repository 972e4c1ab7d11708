// The console's tab icon: the pages link an SVG icon that the emulator serves, /favicon.ico answers with the same
// icon (where a browser looks on pages that are not the console's), and loading a page requests nothing that fails.
import { describe, expect, it } from "vitest";
import { haveChromium, signIn, USERS, useConsoleEnv } from "./helpers.js";

describe.runIf(haveChromium())("console icon (Chromium)", () => {
  const env = useConsoleEnv();

  it("links an SVG icon that loads, and a page load has no failed request", async () => {
    const page = await env.browser.newPage();
    const failed: string[] = [];
    page.on("response", (r) => r.status() >= 400 && failed.push(`${r.status()} ${r.url()}`));
    page.on("requestfailed", (r) => failed.push(`failed ${r.url()}`));
    try {
      await signIn(page, env.emu, USERS.member);
      const href = await page.locator('link[rel="icon"]').getAttribute("href");
      expect(href).toBe("/console/assets/icon.svg");
      const icon = await page.request.get(`${env.emu.url}${href}`);
      expect(icon.status()).toBe(200);
      expect(icon.headers()["content-type"]).toBe("image/svg+xml");
      // Chromium draws it: an <img> of it has the icon's size once decoded.
      const width = await page.evaluate(
        (src) =>
          new Promise<number>((resolve) => {
            const img = new (
              globalThis as unknown as { Image: new () => { src: string; naturalWidth: number; onload: () => void; onerror: () => void } }
            ).Image();
            img.onload = () => resolve(img.naturalWidth);
            img.onerror = () => resolve(-1);
            img.src = src;
          }),
        href!,
      );
      expect(width).toBeGreaterThan(0);
      expect(failed).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("answers /favicon.ico with the same icon", async () => {
    const page = await env.browser.newPage();
    try {
      const r = await page.goto(`${env.emu.url}/favicon.ico`);
      expect(r?.status()).toBe(200);
      expect(r?.headers()["content-type"]).toBe("image/svg+xml");
      expect(await r?.text()).toBe(await (await page.request.get(`${env.emu.url}/console/assets/icon.svg`)).text());
    } finally {
      await page.close();
    }
  });
});
