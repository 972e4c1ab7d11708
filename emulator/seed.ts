// Seed files and the demo account (docs/design.md section 3). Applied on start when the database has no
// accounts, and again after POST /__emulator/reset.
export type { SeedFile, SeedGenerate, SeedSpread, SeedUser } from "./options.js";
import { readFileSync } from "node:fs";
import type { EmulatorContext } from "./context.js";
import { SYSTEM_ORIGIN } from "./auth/auth-context.js";
import { MAX_GENERATED_SITES, MAX_GENERATED_SNAPSHOTS_PER_SITE, type SeedFile } from "./options.js";
import { CONTROL_CHARACTERS, hasControlCharacters } from "../wire/common.js";
import { hashPassword, hashToken, newApiToken, tokenPrefix } from "./auth/secrets.js";
import { otpSecretProblem } from "./auth/otp-secrets.js";
import { createSite } from "./services/sites.js";
import { siteUrlKeyOf } from "./site-urls.js";
import { generatedSite, generateFleet } from "./services/fleet.js";
import { SPREAD_DEFAULTS, SPREAD_EXCLUSIVE, SPREAD_SHARES } from "./services/fleet-spread.js";
import { findUserByEmail, insertAccount, insertUser, ownedAccount, putMembership } from "./store/users.js";
import { insertApiToken } from "./store/api-tokens.js";

export interface DemoCredentials {
  email: string;
  password: string;
  api_token: string;
  account_id: string;
}

function fail(path: string, message: string): never {
  throw new Error(`seed: ${path} ${message}`);
}

const checkText = (path: string, value: string | undefined): void => {
  if (value !== undefined && hasControlCharacters(value)) fail(path, CONTROL_CHARACTERS);
};

/** Checks a seed's shape so a bad file gives one clear line, not a crash half-way through. */
export function validateSeed(seed: unknown): SeedFile {
  const s = seed as SeedFile;
  if (!s || typeof s !== "object" || !Array.isArray(s.accounts)) fail("accounts", "must be an array");
  s.accounts.forEach((a, i) => {
    const p = `accounts[${i}]`;
    if (typeof a?.name !== "string" || !a.name) fail(`${p}.name`, "must be a non-empty string");
    checkText(`${p}.name`, a.name);
    if (!Array.isArray(a.users) || a.users.length === 0) fail(`${p}.users`, "must be a non-empty array");
    a.users.forEach((u, j) => {
      const q = `${p}.users[${j}]`;
      for (const k of ["email", "password", "name"] as const) if (typeof u?.[k] !== "string" || !u[k]) fail(`${q}.${k}`, "must be a non-empty string");
      checkText(`${q}.name`, u.name);
      checkText(`${q}.email`, u.email);
      if (!["owner", "admin", "member"].includes(u.role)) fail(`${q}.role`, "must be owner, admin or member");
      const otpProblem = u.otp_secret === undefined ? undefined : otpSecretProblem(u.otp_secret);
      if (otpProblem) fail(`${q}.otp_secret`, otpProblem);
    });
    (a.api_tokens ?? []).forEach((t, j) => {
      const q = `${p}.api_tokens[${j}]`;
      if (typeof t?.token !== "string" || !/^sot_[A-Za-z0-9]{16,}$/.test(t.token)) fail(`${q}.token`, "must look like sot_<16+ alphanumerics>");
      if (typeof t.name === "string") checkText(`${q}.name`, t.name);
      if (!a.users.some((u) => u.email === t.user_email)) fail(`${q}.user_email`, "must be the email of a user of this account");
    });
    (a.sites ?? []).forEach((site, j) => {
      const q = `${p}.sites[${j}]`;
      if (typeof site?.name !== "string" || typeof site.url !== "string") fail(q, "needs name and url strings");
      checkText(`${q}.name`, site.name);
    });
  });
  if (s.generate !== undefined) validateGenerate(s);
  return s;
}

const isCount = (v: unknown, max: number): v is number => typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= max;
const GENERATE_FIELDS = ["sites", "snapshots_per_site", "account", "spread"];

/** The `generate` shorthand: counts in range, an account of this seed, no URL a seed site already has. */
function validateGenerate(s: SeedFile): void {
  const g = s.generate as unknown as Record<string, unknown>;
  if (!g || typeof g !== "object" || Array.isArray(g)) fail("generate", "must be an object");
  for (const k of Object.keys(g)) if (!GENERATE_FIELDS.includes(k)) fail(`generate.${k}`, `is not a known field (${GENERATE_FIELDS.join(", ")})`);
  if (!isCount(g.sites, MAX_GENERATED_SITES)) fail("generate.sites", `must be an integer from 0 to ${MAX_GENERATED_SITES}`);
  if (g.snapshots_per_site !== undefined && !isCount(g.snapshots_per_site, MAX_GENERATED_SNAPSHOTS_PER_SITE)) {
    fail("generate.snapshots_per_site", `must be an integer from 0 to ${MAX_GENERATED_SNAPSHOTS_PER_SITE}`);
  }
  if (g.account !== undefined && typeof g.account !== "string") fail("generate.account", "must be the name of an account of this seed");
  if (g.spread !== undefined) validateSpread(g.spread);
  const index = generateTarget(s);
  if (index < 0)
    fail(
      "generate.account",
      s.accounts.length ? `must be the name of an account of this seed (not ${JSON.stringify(g.account)})` : "needs an account: accounts is empty",
    );
  // A seed site on a generated URL would break the account's URL uniqueness half-way through the insert.
  (s.accounts[index]!.sites ?? []).forEach((site, j) => {
    const key = siteUrlKeyOf(site.url) ?? ""; // "": not a site URL, so not a generated one
    const i = Number(/^https:\/\/site-(\d+)\.fleet\.test$/.exec(key)?.[1] ?? 0);
    if (i >= 1 && i <= (g.sites as number) && generatedSite(i, g.sites as number).url === key) {
      fail(`accounts[${index}].sites[${j}].url`, `is also generated by generate (site ${i}); pick another URL`);
    }
  });
}

/** `generate.spread`: a seed value and shares, each pair of exclusive shares within one whole. */
function validateSpread(spread: unknown): void {
  if (!spread || typeof spread !== "object" || Array.isArray(spread)) fail("generate.spread", 'must be an object, e.g. {"seed": 1} ({} for every default)');
  const s = spread as Record<string, unknown>;
  const fields = ["seed", ...SPREAD_SHARES];
  for (const k of Object.keys(s)) if (!fields.includes(k)) fail(`generate.spread.${k}`, `is not a known field (${fields.join(", ")})`);
  if (s.seed !== undefined && !isCount(s.seed, 0xffff_ffff)) fail("generate.spread.seed", "must be an integer from 0 to 4294967295");
  for (const k of SPREAD_SHARES) {
    const v = s[k];
    if (v !== undefined && !(typeof v === "number" && v >= 0 && v <= 1)) fail(`generate.spread.${k}`, "must be a share from 0 to 1 (0.05 is 5 %)");
  }
  for (const [a, b] of SPREAD_EXCLUSIVE) {
    const sum = ((s[a] as number | undefined) ?? SPREAD_DEFAULTS[a]) + ((s[b] as number | undefined) ?? SPREAD_DEFAULTS[b]);
    if (sum > 1) fail(`generate.spread.${a}`, `and ${b} together must be at most 1 (a site has one of them), got ${sum}`);
  }
}

/** The index of the account `generate` fills: the named one, else the first. */
function generateTarget(s: SeedFile): number {
  const name = s.generate?.account;
  return name === undefined ? (s.accounts.length ? 0 : -1) : s.accounts.findIndex((a) => a.name === name);
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
      const accountId = ctx.newId("acct");
      accountIds.push(accountId);
      insertAccount(db, { id: accountId, name: a.name, at: now });
      const userIds = new Map<string, string>();
      for (const u of a.users) {
        const existing = findUserByEmail(db, u.email);
        const userId = existing?.id ?? ctx.newId("usr");
        if (!existing) {
          insertUser(db, {
            id: userId,
            email: u.email,
            name: u.name,
            passwordHash: hashPassword(u.password),
            otpSecret: u.otp_secret?.toUpperCase() ?? null,
            at: now,
          });
        }
        userIds.set(u.email, userId);
        putMembership(db, accountId, userId, u.role, now);
      }
      for (const t of a.api_tokens ?? []) {
        insertApiToken(db, {
          id: ctx.newId("tok"),
          hash: hashToken(t.token),
          prefix: tokenPrefix(t.token),
          userId: userIds.get(t.user_email)!,
          accountId,
          name: t.name ?? "seed token",
          at: now,
        });
      }
      for (const site of a.sites ?? []) createSite(ctx, accountId, site, SYSTEM_ORIGIN);
    }
    if (seed.generate) generateFleet(ctx, accountIds[generateTarget(seed)]!, seed.generate);
  })();
  return { accountIds };
}

/** The demo account's owner, printed by the start-up line and hinted at by the console's sign-in page. */
export const DEMO_SIGN_IN = { email: "demo@siteops.test", password: "demo-password-123" } as const;
const DEMO_EMAIL = DEMO_SIGN_IN.email;
const DEMO_PASSWORD = DEMO_SIGN_IN.password;

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

/** On a restart with an existing demo database, a fresh token (tokens are stored hashed). */
export function reissueDemoToken(ctx: EmulatorContext): DemoCredentials {
  const owned = ownedAccount(ctx.db, DEMO_EMAIL);
  if (!owned) return seedDemo(ctx);
  const token = newApiToken();
  insertApiToken(ctx.db, {
    id: ctx.newId("tok"),
    hash: hashToken(token),
    prefix: tokenPrefix(token),
    userId: owned.userId,
    accountId: owned.accountId,
    name: "demo token",
    at: ctx.clock.iso(),
  });
  return { email: DEMO_EMAIL, password: DEMO_PASSWORD, api_token: token, account_id: owned.accountId };
}
