// Shared helpers for the emulator tests: a standard seed (two accounts, every role, a 2FA user),
// an emulator on a port-0 listener, and one `api()` call that returns status, headers and JSON.
import type { EmulatorOptions, RunningEmulator, SeedFile } from "../../emulator/index.js";
import { startSeededEmulator } from "../support/emulator.js";

export const PASSWORD = "correct horse battery staple";
/** Base32 TOTP secret of the 2FA user. */
export const OTP_SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";

export const TOKENS = {
  owner: "sot_helpersOwnerA0000000000000000001",
  admin: "sot_helpersAdminA0000000000000000001",
  member: "sot_helpersMemberA000000000000000001",
  ownerB: "sot_helpersOwnerB0000000000000000001",
  /** The owner of A's token in account B, where the same person is a member. */
  ownerInB: "sot_helpersOwnerAinB00000000000000001",
} as const;

export const USERS = {
  owner: "owner@a.example",
  admin: "admin@a.example",
  member: "member@a.example",
  ownerB: "owner@b.example",
  twoFactor: "otp@a.example",
} as const;

/** Account A (owner, admin, member, a 2FA admin) and account B (its own owner; A's owner is a member). */
export function standardSeed(): SeedFile {
  return {
    accounts: [
      {
        name: "Account A",
        users: [
          { email: USERS.owner, password: PASSWORD, name: "Olivia Owner", role: "owner" },
          { email: USERS.admin, password: PASSWORD, name: "Adam Admin", role: "admin" },
          { email: USERS.member, password: PASSWORD, name: "Mia Member", role: "member" },
          { email: USERS.twoFactor, password: PASSWORD, name: "Otto Otp", role: "admin", otp_secret: OTP_SECRET },
        ],
        api_tokens: [
          { token: TOKENS.owner, user_email: USERS.owner, name: "owner token" },
          { token: TOKENS.admin, user_email: USERS.admin },
          { token: TOKENS.member, user_email: USERS.member },
        ],
      },
      {
        name: "Account B",
        users: [
          { email: USERS.ownerB, password: PASSWORD, name: "Bea B", role: "owner" },
          { email: USERS.owner, password: PASSWORD, name: "Olivia Owner", role: "member" },
        ],
        api_tokens: [
          { token: TOKENS.ownerB, user_email: USERS.ownerB },
          { token: TOKENS.ownerInB, user_email: USERS.owner },
        ],
      },
    ],
  };
}

export async function startTestEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startSeededEmulator(standardSeed(), options);
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface CallOptions {
  /** An API token (sent as `token ...`), or a full header value such as `Bearer ...`. */
  token?: string;
  body?: unknown;
  /** A raw body sent as is (no JSON encoding, no content type unless given). */
  raw?: string | Buffer;
  headers?: Record<string, string>;
}

/** One request to the emulator; `path` is relative to /api/v1 unless it starts with /__ or /openapi. */
export async function api<T = any>(emu: RunningEmulator, method: string, path: string, opts: CallOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = /^(bearer|token) /i.test(opts.token) ? opts.token : `token ${opts.token}`;
  let body: string | Buffer | undefined;
  if (opts.raw !== undefined) body = opts.raw;
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers["content-type"] = "application/json";
  }
  Object.assign(headers, opts.headers);
  const url = path.startsWith("/__") || path.startsWith("/openapi") ? `${emu.url}${path}` : `${emu.url}/api/v1${path}`;
  const res = await fetch(url, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = null;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

/** Advance the emulator's clock (control API). */
export async function advanceClock(emu: RunningEmulator, seconds: number): Promise<void> {
  const res = await api(emu, "POST", "/__emulator/clock", { body: { advance_seconds: seconds } });
  if (res.status !== 200) throw new Error(`clock advance failed: ${res.status} ${res.text}`);
}

/** Poll until `check` returns a truthy value (real time, for work the emulator does asynchronously). */
export async function waitFor<T>(check: () => Promise<T | undefined | null | false>, what = "condition", timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
