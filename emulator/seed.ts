// Seed files and the demo account (DESIGN.md section 3). Applied on start when the database has no
// accounts, and again after POST /__emulator/reset.
import { readFileSync } from "node:fs";
import type { EmulatorContext } from "./context.js";
import type { Role } from "./auth/auth-context.js";
import { newId } from "./ids.js";
import { hashPassword, hashToken, newApiToken } from "./auth/secrets.js";
import { createSite } from "./services/sites.js";
import { SYSTEM_ACTOR } from "./auth/auth-context.js";

export interface SeedUser {
  email: string;
  password: string;
  name: string;
  role: Role;
  otp_secret?: string;
}

export interface SeedFile {
  accounts: {
    name: string;
    users: SeedUser[];
    api_tokens?: { token: string; user_email: string; name?: string }[];
    sites?: { name: string; url: string; wp_version?: string; php_version?: string }[];
  }[];
}

export interface DemoCredentials {
  email: string;
  password: string;
  api_token: string;
  account_id: string;
}

function fail(path: string, message: string): never {
  throw new Error(`seed: ${path} ${message}`);
}

/** Checks a seed's shape so a bad file gives one clear line, not a crash half-way through. */
export function validateSeed(seed: unknown): SeedFile {
  const s = seed as SeedFile;
  if (!s || typeof s !== "object" || !Array.isArray(s.accounts)) fail("accounts", "must be an array");
  s.accounts.forEach((a, i) => {
    const p = `accounts[${i}]`;
    if (typeof a?.name !== "string" || !a.name) fail(`${p}.name`, "must be a non-empty string");
    if (!Array.isArray(a.users) || a.users.length === 0) fail(`${p}.users`, "must be a non-empty array");
    a.users.forEach((u, j) => {
      const q = `${p}.users[${j}]`;
      for (const k of ["email", "password", "name"] as const) if (typeof u?.[k] !== "string" || !u[k]) fail(`${q}.${k}`, "must be a non-empty string");
      if (!["owner", "admin", "member"].includes(u.role)) fail(`${q}.role`, "must be owner, admin or member");
      if (u.otp_secret !== undefined && (typeof u.otp_secret !== "string" || !/^[A-Z2-7]+=*$/i.test(u.otp_secret))) fail(`${q}.otp_secret`, "must be a base32 string");
    });
    (a.api_tokens ?? []).forEach((t, j) => {
      const q = `${p}.api_tokens[${j}]`;
      if (typeof t?.token !== "string" || !/^sot_[A-Za-z0-9]{16,}$/.test(t.token)) fail(`${q}.token`, "must look like sot_<16+ alphanumerics>");
      if (!a.users.some((u) => u.email === t.user_email)) fail(`${q}.user_email`, "must be the email of a user of this account");
    });
    (a.sites ?? []).forEach((site, j) => {
      const q = `${p}.sites[${j}]`;
      if (typeof site?.name !== "string" || typeof site.url !== "string") fail(q, "needs name and url strings");
    });
  });
  return s;
}

export function loadSeed(seed: SeedFile | string): SeedFile {
  if (typeof seed !== "string") return validateSeed(seed);
  let text: string;
  try {
    text = readFileSync(seed, "utf8");
  } catch (err) {
    throw new Error(`seed: cannot read ${seed}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  try {
    return validateSeed(JSON.parse(text));
  } catch (err) {
    throw new Error(err instanceof SyntaxError ? `seed: ${seed} is not valid JSON: ${err.message}` : (err as Error).message);
  }
}

export function applySeed(ctx: EmulatorContext, seed: SeedFile): { accountIds: string[] } {
  const { db, clock } = ctx;
  const accountIds: string[] = [];
  db.transaction(() => {
    for (const a of seed.accounts) {
      const now = clock.iso();
      const accountId = newId("acct");
      accountIds.push(accountId);
      db.prepare("INSERT INTO accounts (id, name, personal, owner_id, created_at, updated_at) VALUES (?, ?, 0, NULL, ?, ?)").run(accountId, a.name, now, now);
      const userIds = new Map<string, string>();
      for (const u of a.users) {
        const existing = db.prepare("SELECT id FROM users WHERE email = ?").get(u.email) as { id: string } | undefined;
        const userId = existing?.id ?? newId("usr");
        if (!existing) {
          db.prepare("INSERT INTO users (id, email, name, password_hash, otp_secret, created_at) VALUES (?, ?, ?, ?, ?, ?)").run(
            userId, u.email, u.name, hashPassword(u.password), u.otp_secret?.toUpperCase() ?? null, now,
          );
        }
        userIds.set(u.email, userId);
        db.prepare("INSERT OR REPLACE INTO memberships (account_id, user_id, role, created_at) VALUES (?, ?, ?, ?)").run(accountId, userId, u.role, now);
        if (u.role === "owner") db.prepare("UPDATE accounts SET owner_id = COALESCE(owner_id, ?) WHERE id = ?").run(userId, accountId);
      }
      for (const t of a.api_tokens ?? []) {
        db.prepare("INSERT INTO api_tokens (id, token_hash, user_id, account_id, name, created_at) VALUES (?, ?, ?, ?, ?, ?)").run(
          newId("tok"), hashToken(t.token), userIds.get(t.user_email)!, accountId, t.name ?? "seed token", now,
        );
      }
      for (const site of a.sites ?? []) {
        createSite(ctx, accountId, site, { actor: SYSTEM_ACTOR });
      }
    }
  })();
  return { accountIds };
}

export const DEMO_EMAIL = "demo@siteops.test";
export const DEMO_PASSWORD = "demo-password-123";

/** A demo account with a few sites on different versions; returns credentials for the start-up line. */
export function seedDemo(ctx: EmulatorContext): DemoCredentials {
  const token = newApiToken();
  const { accountIds } = applySeed(ctx, {
    accounts: [
      {
        name: "Demo Agency",
        users: [
          { email: DEMO_EMAIL, password: DEMO_PASSWORD, name: "Demo Owner", role: "owner" },
          { email: "member@siteops.test", password: DEMO_PASSWORD, name: "Demo Member", role: "member" },
        ],
        api_tokens: [{ token, user_email: DEMO_EMAIL, name: "demo token" }],
        sites: [
          { name: "Marketing site", url: "https://www.example.com", wp_version: "6.4", php_version: "8.1" },
          { name: "Shop", url: "https://shop.example.com", wp_version: "6.2", php_version: "8.0" },
          { name: "Docs", url: "https://docs.example.com" },
        ],
      },
    ],
  });
  return { email: DEMO_EMAIL, password: DEMO_PASSWORD, api_token: token, account_id: accountIds[0]! };
}
