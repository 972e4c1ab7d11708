// /me, /accounts and /users: the current user and account, account switching with X-Account-Id,
// and the role rules (members read; writes need owner or admin).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { PASSWORD, TOKENS, USERS, api, startTestEmulator } from "./helpers.js";

let emu: RunningEmulator;
let accountA: string;
let accountB: string;

beforeAll(async () => {
  emu = await startTestEmulator();
  accountA = (await api(emu, "GET", "/me", { token: TOKENS.owner })).body.current_account_id;
  accountB = (await api(emu, "GET", "/me", { token: TOKENS.ownerB })).body.current_account_id;
});
afterAll(async () => {
  await emu.close();
});

describe("GET /me", () => {
  it("describes the user, the role in the current account and that account", async () => {
    const res = await api(emu, "GET", "/me", { token: TOKENS.owner });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^usr_/),
      email: USERS.owner,
      name: "Olivia Owner",
      role: "owner",
      two_factor_enabled: false,
      created_at: expect.any(String),
      current_account_id: expect.stringMatching(/^acct_/),
    });
    expect((await api(emu, "GET", "/me", { token: TOKENS.member })).body.role).toBe("member");
    expect((await api(emu, "GET", "/me", { token: TOKENS.admin })).body.role).toBe("admin");
  });

  it("needs authentication", async () => {
    const res = await api(emu, "GET", "/me");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: "You need to sign in or sign up before continuing." });
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
  });
});

describe("GET /accounts", () => {
  it("lists the accounts the user belongs to, oldest first", async () => {
    const res = await api(emu, "GET", "/accounts", { token: TOKENS.owner });
    expect(res.status).toBe(200);
    expect(res.body.map((a: any) => a.id)).toEqual([accountA, accountB]);
    expect(res.body[0]).toEqual({
      id: accountA,
      name: "Account A",
      personal: false,
      owner_id: expect.stringMatching(/^usr_/),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(res.headers.get("total-count")).toBe("2");
    const b = await api(emu, "GET", "/accounts", { token: TOKENS.ownerB });
    expect(b.body.map((a: any) => a.id)).toEqual([accountB]);
  });

  it("gets one account of the user; another account is 404", async () => {
    expect((await api(emu, "GET", `/accounts/${accountB}`, { token: TOKENS.owner })).body.name).toBe("Account B");
    const other = await api(emu, "GET", `/accounts/${accountA}`, { token: TOKENS.ownerB });
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ error: "Record not found" });
    expect((await api(emu, "GET", "/accounts/acct_nope", { token: TOKENS.owner })).status).toBe(404);
  });
});

describe("GET /users", () => {
  it("lists the members of the current account with their roles", async () => {
    const res = await api(emu, "GET", "/users", { token: TOKENS.member });
    expect(res.status).toBe(200);
    expect(res.body.map((u: any) => [u.email, u.role, u.two_factor_enabled])).toEqual([
      [USERS.owner, "owner", false],
      [USERS.admin, "admin", false],
      [USERS.member, "member", false],
      [USERS.twoFactor, "admin", true],
    ]);
    for (const u of res.body) expect(Object.keys(u).sort()).toEqual(["created_at", "email", "id", "name", "role", "two_factor_enabled"]);
    const b = await api(emu, "GET", "/users", { token: TOKENS.ownerB });
    expect(b.body.map((u: any) => [u.email, u.role])).toEqual([
      [USERS.ownerB, "owner"],
      [USERS.owner, "member"],
    ]);
  });
});

describe("X-Account-Id", () => {
  it("switches a JWT to another account of the user, with the role held there", async () => {
    const login = await api(emu, "POST", "/jwt", { body: { email: USERS.owner, password: PASSWORD } });
    const bearer = `Bearer ${login.body.access_token}`;
    const me = await api(emu, "GET", "/me", { token: bearer, headers: { "x-account-id": accountB } });
    expect(me.body).toMatchObject({ current_account_id: accountB, role: "member" });
    const users = await api(emu, "GET", "/users", { token: bearer, headers: { "x-account-id": accountB } });
    expect(users.body.map((u: any) => u.email)).toContain(USERS.ownerB);

    // In B the owner of A is only a member: writes are forbidden there.
    const create = await api(emu, "POST", "/sites", {
      token: bearer,
      headers: { "x-account-id": accountB },
      body: { name: "Nope", url: "https://nope.example.com" },
    });
    expect(create.status).toBe(403);

    // Sites created in B by its owner are visible to A's owner only when switched to B.
    const site = await api(emu, "POST", "/sites", { token: TOKENS.ownerB, body: { name: "B site", url: "https://b.example.com" } });
    expect((await api(emu, "GET", `/sites/${site.body.id}`, { token: bearer })).status).toBe(404);
    expect((await api(emu, "GET", `/sites/${site.body.id}`, { token: bearer, headers: { "x-account-id": accountB } })).status).toBe(200);
  });

  it("an API token acts only in the account it was made in (403 for another account of its user)", async () => {
    const res = await api(emu, "GET", "/me", { token: TOKENS.owner, headers: { "x-account-id": accountB } });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatch(/^This API token acts only in the account it was created in/);
    expect((await api(emu, "GET", "/me", { token: TOKENS.ownerInB })).body.current_account_id).toBe(accountB);
  });

  it("works with JWT access tokens too", async () => {
    const login = await api(emu, "POST", "/jwt", { body: { email: USERS.owner, password: PASSWORD } });
    const bearer = `Bearer ${login.body.access_token}`;
    expect((await api(emu, "GET", "/me", { token: bearer })).body.current_account_id).toBe(accountA);
    expect((await api(emu, "GET", "/me", { token: bearer, headers: { "x-account-id": accountB } })).body.current_account_id).toBe(accountB);
  });

  it("is 404 for an account the user does not belong to, or that does not exist", async () => {
    for (const id of [accountA, "acct_doesnotexist00000000", "garbage"]) {
      const res = await api(emu, "GET", "/me", { token: TOKENS.ownerB, headers: { "x-account-id": id } });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: "Record not found" });
    }
  });
});

describe("roles", () => {
  it("members read everything but may not write sites or webhook endpoints", async () => {
    const site = (await api(emu, "POST", "/sites", { token: TOKENS.owner, body: { name: "S", url: "https://roles.example.com" } })).body;
    const hook = (await api(emu, "POST", "/webhook_endpoints", { token: TOKENS.admin, body: { url: "https://hooks.example.com/r" } })).body;
    for (const path of ["/me", "/accounts", "/users", "/sites", `/sites/${site.id}`, "/activity_logs", "/webhook_endpoints", `/webhook_endpoints/${hook.id}`]) {
      expect((await api(emu, "GET", path, { token: TOKENS.member })).status, path).toBe(200);
    }
    const writes: [string, string, unknown][] = [
      ["POST", "/sites", { name: "M", url: "https://member.example.com" }],
      ["PATCH", `/sites/${site.id}`, { name: "M" }],
      ["DELETE", `/sites/${site.id}`, undefined],
      ["POST", "/webhook_endpoints", { url: "https://hooks.example.com/m" }],
      ["PATCH", `/webhook_endpoints/${hook.id}`, { description: "m" }],
      ["DELETE", `/webhook_endpoints/${hook.id}`, undefined],
    ];
    for (const [method, path, body] of writes) {
      const res = await api(emu, method, path, { token: TOKENS.member, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body).toEqual({ error: "You are not authorized to perform this action." });
    }
    expect((await api(emu, "GET", `/sites/${site.id}`, { token: TOKENS.owner })).body.name).toBe("S");
    expect((await api(emu, "GET", `/webhook_endpoints/${hook.id}`, { token: TOKENS.owner })).body.description).toBeNull();
  });
});
