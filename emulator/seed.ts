// Seed files and the demo account (docs/design.md section 3). Applied on start when the database has no
// accounts, and again after POST /__emulator/reset.
export type { SeedFile, SeedGenerate, SeedSpread, SeedUser } from "./options.js";
import { readFileSync } from "node:fs";
import type { EmulatorContext } from "./context.js";
import { SYSTEM_ORIGIN } from "./auth/auth-context.js";
import type { SeedFile } from "./options.js";
import { hashPassword, hashToken, newApiToken, tokenPrefix } from "./auth/secrets.js";
import { createSite } from "./services/sites.js";
import { generateTarget, validateSeed } from "./seed-checks.js";
import { generateFleet } from "./services/fleet.js";
import { findUserByEmail, insertAccount, insertUser, ownedAccount, putMembership } from "./store/users.js";
import { insertApiToken } from "./store/api-tokens.js";

export { validateSeed } from "./seed-checks.js";

export interface DemoCredentials {
  email: string;
  password: string;
  api_token: string;
  account_id: string;
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
