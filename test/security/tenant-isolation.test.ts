// The security matrix over every endpoint of the spec: unauthenticated calls are 401, another
// account's records are 404 and stay untouched, members may only read and create snapshots,
// X-Account-Id cannot reach an account the user is not a member of, and expired or revoked
// credentials are refused with the strings of docs/design.md.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";

const OWNER_A = "sot_securityOwnerA000000000000000001";
const MEMBER_A = "sot_securityMemberA00000000000000001";
const OWNER_B = "sot_securityOwnerB000000000000000001";
const PASSWORD = "correct horse battery";

let emu: RunningEmulator;

interface Res {
  status: number;
  body: any;
}

async function call(method: string, path: string, token?: string, body?: unknown, headers: Record<string, string> = {}): Promise<Res> {
  const h: Record<string, string> = { ...headers };
  if (token) h.authorization = token.startsWith("Bearer ") ? token : `token ${token}`;
  let payload: string | Buffer | undefined;
  if (body instanceof Buffer) {
    payload = body;
    h["content-type"] ??= "application/octet-stream";
  } else if (body !== undefined) {
    payload = JSON.stringify(body);
    h["content-type"] = "application/json";
  }
  const res = await fetch(`${emu.url}/api/v1${path}`, { method, headers: h, body: payload });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

// Records of account A that account B will try to reach.
const a = {} as {
  site: string;
  check: string;
  snapshot: string;
  uploadSnapshot: string;
  pipeline: string;
  vuln: string;
  webhook: string;
  account: string;
};

beforeAll(async () => {
  emu = await startEmulator({
    port: 0,
    stepSeconds: 0,
    seed: {
      accounts: [
        {
          name: "Account A",
          users: [
            { email: "owner-a@example.com", password: PASSWORD, name: "Owner A", role: "owner" },
            { email: "member-a@example.com", password: PASSWORD, name: "Member A", role: "member" },
          ],
          api_tokens: [
            { token: OWNER_A, user_email: "owner-a@example.com" },
            { token: MEMBER_A, user_email: "member-a@example.com" },
          ],
        },
        {
          name: "Account B",
          users: [{ email: "owner-b@example.com", password: PASSWORD, name: "Owner B", role: "owner" }],
          api_tokens: [{ token: OWNER_B, user_email: "owner-b@example.com" }],
        },
      ],
    },
  });
  const site = await call("POST", "/sites", OWNER_A, { name: "A site", url: "https://a.example.com", wp_version: "6.2" });
  expect(site.status).toBe(201);
  a.site = site.body.id;
  const checks = await call("GET", `/sites/${a.site}/health_checks`, OWNER_A);
  a.check = checks.body[0].id;
  const snap = await call("POST", `/sites/${a.site}/snapshots`, OWNER_A, { description: "before" });
  a.snapshot = snap.body.id;
  const up = await call("POST", `/sites/${a.site}/snapshots`, OWNER_A, { upload: true });
  a.uploadSnapshot = up.body.id;
  const pipe = await call("POST", `/sites/${a.site}/upgrade_pipelines`, OWNER_A, { to_wp_version: "6.9", snapshot_id: a.snapshot });
  expect(pipe.status).toBe(201);
  a.pipeline = pipe.body.id;
  const vulns = await call("GET", `/sites/${a.site}/vulnerability_records`, OWNER_A);
  a.vuln = vulns.body[0].id;
  const hook = await call("POST", "/webhook_endpoints", OWNER_A, { url: "https://hooks.example.com/a", enabled_events: ["*"] });
  a.webhook = hook.body.id;
  a.account = (await call("GET", "/me", OWNER_A)).body.current_account_id;
});

afterAll(async () => {
  await emu?.close();
});

interface Endpoint {
  method: string;
  path: () => string;
  body?: () => unknown;
  /** Writes that a member may not do. */
  write?: boolean;
  /** Endpoints whose path names a record of account A (B must get 404). */
  scoped?: boolean;
}

// The 29 endpoints that require authentication (the other 5 of the 34 are the public logins).
const ENDPOINTS: Endpoint[] = [
  { method: "GET", path: () => "/sites" },
  { method: "POST", path: () => "/sites", body: () => ({ name: "x", url: `https://x${Math.random()}.example.com` }), write: true },
  { method: "GET", path: () => `/sites/${a.site}`, scoped: true },
  { method: "PATCH", path: () => `/sites/${a.site}`, body: () => ({ name: "hijacked" }), write: true, scoped: true },
  { method: "DELETE", path: () => `/sites/${a.site}`, write: true, scoped: true },
  { method: "GET", path: () => `/sites/${a.site}/health_checks`, scoped: true },
  { method: "GET", path: () => `/sites/${a.site}/health_checks/${a.check}`, scoped: true },
  { method: "GET", path: () => `/sites/${a.site}/snapshots`, scoped: true },
  { method: "GET", path: () => `/sites/${a.site}/snapshots/${a.snapshot}`, scoped: true },
  { method: "POST", path: () => `/sites/${a.site}/snapshots`, body: () => ({ description: "intruder" }), scoped: true },
  { method: "DELETE", path: () => `/sites/${a.site}/snapshots/${a.snapshot}`, write: true, scoped: true },
  { method: "PUT", path: () => `/sites/${a.site}/snapshots/${a.uploadSnapshot}/upload`, body: () => Buffer.from("data"), scoped: true },
  { method: "GET", path: () => `/sites/${a.site}/upgrade_pipelines`, scoped: true },
  { method: "GET", path: () => `/sites/${a.site}/upgrade_pipelines/${a.pipeline}`, scoped: true },
  { method: "POST", path: () => `/sites/${a.site}/upgrade_pipelines`, body: () => ({ to_php_version: "8.4" }), write: true, scoped: true },
  { method: "POST", path: () => `/sites/${a.site}/upgrade_pipelines/${a.pipeline}/approve`, body: () => ({ comment: "go" }), write: true, scoped: true },
  { method: "GET", path: () => `/sites/${a.site}/vulnerability_records`, scoped: true },
  { method: "GET", path: () => `/sites/${a.site}/vulnerability_records/${a.vuln}`, scoped: true },
  {
    method: "PATCH",
    path: () => `/sites/${a.site}/vulnerability_records/${a.vuln}`,
    body: () => ({ status: "ignored", dismissed_reason: "not_used" }),
    write: true,
    scoped: true,
  },
  { method: "GET", path: () => "/activity_logs" },
  { method: "GET", path: () => "/webhook_endpoints" },
  { method: "GET", path: () => `/webhook_endpoints/${a.webhook}`, scoped: true },
  { method: "POST", path: () => "/webhook_endpoints", body: () => ({ url: "https://hooks.example.com/x", enabled_events: ["*"] }), write: true },
  { method: "PATCH", path: () => `/webhook_endpoints/${a.webhook}`, body: () => ({ description: "hijacked" }), write: true, scoped: true },
  { method: "DELETE", path: () => `/webhook_endpoints/${a.webhook}`, write: true, scoped: true },
  { method: "GET", path: () => "/me" },
  { method: "GET", path: () => "/accounts" },
  { method: "GET", path: () => `/accounts/${a.account}`, scoped: true },
  { method: "GET", path: () => "/users" },
];

const label = (e: Endpoint): string => `${e.method} ${e.path().replace(/(site|hc|snap|upg|vuln|we|acct)_[A-Za-z0-9]+/g, ":$1")}`;

describe("unauthenticated", () => {
  it("every authenticated endpoint (and DELETE /auth, POST /jwt/revoke) answers 401 with the sign-in message", async () => {
    const all = [...ENDPOINTS, { method: "DELETE", path: () => "/auth" }, { method: "POST", path: () => "/jwt/revoke", body: () => ({ token: "x" }) }];
    for (const e of all) {
      for (const token of [undefined, "sot_doesnotexist000000000000000000", "Bearer not.a.jwt"]) {
        const res = await call(e.method, e.path(), token, e.body?.());
        expect([label(e), res.status, res.body]).toEqual([label(e), 401, { error: "You need to sign in or sign up before continuing." }]);
      }
    }
  });
});

describe("cross-account", () => {
  it("another account's records are 404 on every endpoint that names them, and nothing changes", async () => {
    const before = await snapshotOfA();
    for (const e of ENDPOINTS.filter((x) => x.scoped)) {
      const res = await call(e.method, e.path(), OWNER_B, e.body?.());
      expect([label(e), res.status, res.body]).toEqual([label(e), 404, { error: "Record not found" }]);
    }
    expect(await snapshotOfA()).toEqual(before);
  });

  it("lists show only the caller's own records", async () => {
    expect((await call("GET", "/sites", OWNER_B)).body).toEqual([]);
    expect((await call("GET", "/webhook_endpoints", OWNER_B)).body).toEqual([]);
    const logs = (await call("GET", "/activity_logs", OWNER_B)).body as { account_id: string }[];
    expect(logs.every((l) => l.account_id !== a.account)).toBe(true);
    const accounts = (await call("GET", "/accounts", OWNER_B)).body as { id: string }[];
    expect(accounts.map((x) => x.id)).not.toContain(a.account);
    const users = (await call("GET", "/users", OWNER_B)).body as { email: string }[];
    expect(users.map((u) => u.email)).toEqual(["owner-b@example.com"]);
  });

  it("X-Account-Id naming an account the user does not belong to is 404", async () => {
    const res = await call("GET", "/sites", OWNER_B, undefined, { "x-account-id": a.account });
    expect(res).toEqual({ status: 404, body: { error: "Record not found" } });
  });
});

describe("member role", () => {
  it("may read everything and create snapshots (with their data), and gets 403 on every other write", async () => {
    const before = await snapshotOfA();
    for (const e of ENDPOINTS) {
      const res = await call(e.method, e.path(), MEMBER_A, e.body?.());
      if (e.write) {
        expect([label(e), res.status, res.body]).toEqual([label(e), 403, { error: "You are not authorized to perform this action." }]);
      } else {
        expect([label(e), res.status]).toEqual([label(e), e.method === "POST" ? 201 : 200]);
      }
    }
    const after = await snapshotOfA();
    // The writes a member did: a new snapshot, and the data of the upload snapshot.
    expect(after.snapshots.length).toBe(before.snapshots.length + 1);
    expect(after.snapshots).toContainEqual([a.uploadSnapshot, "completed"]);
    expect(before.snapshots).toContainEqual([a.uploadSnapshot, "requested"]);
    expect({ ...after, snapshots: [] }).toEqual({ ...before, snapshots: [] });
  });
});

describe("token lifecycle", () => {
  it("an expired access token is refused with 'Signature has expired'", async () => {
    const login = await call("POST", "/jwt", undefined, { email: "owner-b@example.com", password: PASSWORD });
    expect(login.status).toBe(200);
    const bearer = `Bearer ${login.body.access_token}`;
    expect((await call("GET", "/me", bearer)).status).toBe(200);
    await fetch(`${emu.url}/__emulator/clock`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ advance_seconds: 901 }),
    });
    expect(await call("GET", "/me", bearer)).toEqual({ status: 401, body: { error: "Signature has expired" } });
  });

  it("a revoked access token is refused with 'revoked token'", async () => {
    const login = await call("POST", "/jwt", undefined, { email: "owner-b@example.com", password: PASSWORD });
    const bearer = `Bearer ${login.body.access_token}`;
    expect(await call("POST", "/jwt/revoke", bearer, { token: login.body.access_token })).toEqual({ status: 200, body: { revoked: true } });
    expect(await call("GET", "/me", bearer)).toEqual({ status: 401, body: { error: "revoked token" } });
  });

  it("reusing a rotated refresh token revokes the whole family", async () => {
    const login = await call("POST", "/jwt", undefined, { email: "owner-b@example.com", password: PASSWORD });
    const first = login.body.refresh_token;
    const rotated = await call("POST", "/jwt/refresh", undefined, { refresh_token: first });
    expect(rotated.status).toBe(200);
    expect(rotated.body.refresh_token).not.toBe(first);
    expect((await call("POST", "/jwt/refresh", undefined, { refresh_token: first })).status).toBe(401);
    // The family is gone: the token issued by the rotation no longer works either.
    expect((await call("POST", "/jwt/refresh", undefined, { refresh_token: rotated.body.refresh_token })).status).toBe(401);
  });

  it("a wrong password and an unknown user get the same answer", async () => {
    const wrong = await call("POST", "/jwt", undefined, { email: "owner-b@example.com", password: "nope" });
    const unknown = await call("POST", "/jwt", undefined, { email: "nobody@example.com", password: "nope" });
    expect(wrong).toEqual({ status: 401, body: { error: "Invalid email or password" } });
    expect(unknown).toEqual(wrong);
  });

  it("no token or password hash appears in any response", async () => {
    const bodies = await Promise.all(ENDPOINTS.filter((e) => e.method === "GET").map((e) => call("GET", e.path(), OWNER_A)));
    const text = JSON.stringify(bodies);
    expect(text).not.toContain(OWNER_A);
    expect(text).not.toContain("scrypt$");
    expect(text).not.toMatch(/password/i);
  });
});

/** Everything of account A that B or a member might try to change. */
async function snapshotOfA() {
  const [site, snapshots, pipelines, vulns, hooks] = await Promise.all([
    call("GET", `/sites/${a.site}`, OWNER_A),
    call("GET", `/sites/${a.site}/snapshots?per_page=100`, OWNER_A),
    call("GET", `/sites/${a.site}/upgrade_pipelines`, OWNER_A),
    call("GET", `/sites/${a.site}/vulnerability_records/${a.vuln}`, OWNER_A),
    call("GET", "/webhook_endpoints", OWNER_A),
  ]);
  const sites = (await call("GET", "/sites", OWNER_A)).body as unknown[];
  return {
    site: site.body,
    sites: sites.length,
    snapshots: (snapshots.body as { id: string; status: string }[]).map((s) => [s.id, s.status]),
    pipelines: (pipelines.body as { id: string; status: string }[]).map((p) => [p.id, p.status]),
    vuln: vulns.body,
    hooks: hooks.body,
  };
}
