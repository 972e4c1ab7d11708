// The console's sign-in in a real browser: password then 2FA code, the API's own errors, sessions in
// an HttpOnly SameSite=Lax cookie, no secret in URLs or pages, CSRF on every form, sign-out.
import { describe, expect, it } from "vitest";
import { PASSWORD, USERS, csrfOf, haveChromium, otpCode, postForm, screenshot, signIn, useConsoleEnv } from "./helpers.js";

describe.runIf(haveChromium())("console sign-in (Chromium)", () => {
  const env = useConsoleEnv();

  it("signs in a user with 2FA: password, then the code; the session cookie is HttpOnly and SameSite=Lax", async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    const urls: string[] = [];
    page.on("request", (r) => urls.push(r.url()));
    await page.goto(`${env.emu.url}/`);
    expect(new URL(page.url()).pathname).toBe("/sign-in");
    await screenshot(page, "sign-in");
    await page.getByLabel("Email").fill(USERS.twoFactor);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByLabel("Verification code").waitFor();
    // The password is not in the 2FA page (it waits server-side).
    expect(await page.content()).not.toContain(PASSWORD);
    await screenshot(page, "sign-in-2fa");

    await page.getByLabel("Verification code").fill("000000");
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page.getByRole("alert").textContent()).resolves.toBe("Incorrect verification code");

    await page.getByLabel("Verification code").fill(await otpCode(env.emu));
    await page.getByRole("button", { name: "Verify" }).click();
    await page.waitForURL(`${env.emu.url}/sites`);
    await expect(page.locator("header .who").textContent()).resolves.toContain("Otto Otp");

    const session = (await context.cookies()).find((c) => c.name === "siteops_session")!;
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax" });
    expect(urls.some((u) => u.includes(encodeURIComponent(PASSWORD)) || u.includes(PASSWORD))).toBe(false);

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(`${env.emu.url}/sign-in`);
    await page.goto(`${env.emu.url}/settings/api`);
    expect(new URL(page.url()).pathname).toBe("/sign-in");
    await context.close();
  });

  it("shows the same error as POST /api/v1/jwt for a wrong password, and keeps the email", async () => {
    const api = await fetch(`${env.emu.url}/api/v1/jwt`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: USERS.owner, password: "wrong password" }),
    });
    const apiError = ((await api.json()) as { error: string }).error;
    expect(api.status).toBe(401);

    const page = await env.browser.newPage();
    await page.goto(`${env.emu.url}/sign-in`);
    await page.getByLabel("Email").fill(USERS.owner);
    await page.getByLabel("Password").fill("wrong password");
    const [response] = await Promise.all([page.waitForResponse((r) => r.request().method() === "POST"), page.getByRole("button", { name: "Sign in" }).click()]);
    expect(response.status()).toBe(401);
    await expect(page.getByRole("alert").textContent()).resolves.toBe(apiError);
    await expect(page.getByLabel("Email").inputValue()).resolves.toBe(USERS.owner);
    await expect(page.getByLabel("Password").inputValue()).resolves.toBe("");
    await screenshot(page, "sign-in-wrong-password");
    await page.close();
  });

  it("refuses a form post without the CSRF token (403), and with another session's token", async () => {
    const page = await env.browser.newPage();
    await signIn(page, env.emu, USERS.owner);
    const before = await (
      await fetch(`${env.emu.url}/api/v1/activity_logs?action=api_token.created`, { headers: { authorization: "token sot_helpersOwnerA0000000000000000001" } })
    ).json();

    const missing = await postForm(page, "/settings/api/tokens", { name: "csrf-less" });
    expect(missing.status).toBe(403);
    expect(missing.text).toContain("CSRF");

    const other = await env.browser.newPage(); // a separate browser context: its own cookies
    await other.goto(`${env.emu.url}/sign-in`);
    const foreign = await csrfOf(other);
    expect((await postForm(page, "/settings/api/tokens", { name: "foreign token", _csrf: foreign })).status).toBe(403);

    const after = await (
      await fetch(`${env.emu.url}/api/v1/activity_logs?action=api_token.created`, { headers: { authorization: "token sot_helpersOwnerA0000000000000000001" } })
    ).json();
    expect(after).toEqual(before);
    expect((await postForm(page, "/settings/api/tokens", { name: "with token", _csrf: await csrfOf(page) })).status).toBe(201);
    await Promise.all([page.close(), other.close()]);
  });
});
