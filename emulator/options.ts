// Options of the emulator, with their defaults declared once (CLI flags map onto these).
import type { Role } from "./auth/auth-context.js";
import type { ProfileName } from "./profile.js";
import type { SiteInput } from "../wire/sites.js";

export interface SeedUser {
  email: string;
  password: string;
  name: string;
  role: Role;
  otp_secret?: string;
}

/** The seed file of docs/design.md section 3 (checked by seed.ts before anything is written). */
export interface SeedFile {
  accounts: {
    name: string;
    users: SeedUser[];
    api_tokens?: { token: string; user_email: string; name?: string }[];
    /** Create bodies, as POST /api/v1/sites takes them (checked the same way). */
    sites?: SiteInput[];
  }[];
  /** A generated fleet on top of `accounts` (see SeedGenerate). */
  generate?: SeedGenerate;
}

/**
 * A fleet generated at seed time, inserted in one transaction: sites named `Site 00001`, `Site 00002`, ... with
 * URLs `https://site-00001.fleet.test`, ... (at least five digits), on the current WordPress and PHP versions,
 * each `healthy` with one passed health check and, when asked, completed snapshots one day apart. With `spread`,
 * the fleet is a real one's mix instead (SeedSpread).
 */
export interface SeedGenerate {
  /** How many sites (0 to MAX_GENERATED_SITES). */
  sites: number;
  /** Completed service snapshots per site (0 to MAX_GENERATED_SNAPSHOTS_PER_SITE). Default 0. */
  snapshots_per_site?: number;
  /** The name of the seed account that holds them. Default: the first account. */
  account?: string;
  /** Mixed versions, statuses and vulnerability records, chosen from a seed value (SeedSpread). Default: none. */
  spread?: SeedSpread;
}

/**
 * The spread of a real fleet over a generated one (`"spread": {}` takes every default). Shares are of the sites
 * (or of the records), rounded to whole sites; which sites get what is drawn from `seed`, so one seed value always
 * makes the same fleet. Each site then has the health check and vulnerability records its versions give it, as a
 * created site has.
 */
export interface SeedSpread {
  /** The value every choice is drawn from: the same seed, the same fleet. An integer 0 to 2^32 - 1. Default 1. */
  seed?: number;
  /** Share of sites on a WordPress below the newest (older minors, recent ones likelier; older PHP with them). Default 0.25. */
  below?: number;
  /** Share of sites above the newest WordPress (SPREAD_PRE_RELEASE_WP, a pre-release, on the newest PHPs). Default 0.02. */
  above?: number;
  /** Share of sites whose checks give `warning` (slow answers), so they stay `degraded` until a forced check. Default 0.03. */
  degraded?: number;
  /** Share of sites whose checks fail (unreachable), so they stay `down` until a forced check. Default 0.02. */
  down?: number;
  /** Share of the open vulnerability records a person dismissed (`ignored`, with a reason and a comment). Default 0.1. */
  dismissed?: number;
}

export const MAX_GENERATED_SITES = 1_000_000;
export const MAX_GENERATED_SNAPSHOTS_PER_SITE = 1_000;

export interface RateLimitOptions {
  /** Requests allowed per window, per credential (or per IP when unauthenticated). */
  limit: number;
  windowSeconds: number;
}

export interface EmulatorOptions {
  /** TCP port; 0 picks a free one. Default 4747 from the CLI, 0 in-process. */
  port?: number;
  /** Listen address. Default 127.0.0.1. */
  host?: string;
  /** SQLite file, or ":memory:". Default ":memory:". */
  db?: string;
  /** Where uploaded snapshot data is written. Default: a temp dir (removed on close when we created it). */
  dataDir?: string;
  /** A seed object or the path of a seed JSON file, applied on start when the database is empty. */
  seed?: SeedFile | string;
  /** Seed the demo account and return its credentials. */
  demo?: boolean;
  /** Seconds of emulator clock per step of snapshots and pipelines. Default 2; 0 completes at once. */
  stepSeconds?: number;
  /** Rate limiting; null (default) turns it off. */
  rateLimit?: RateLimitOptions | null;
  /** JWT access token lifetime in seconds. Default 900. */
  accessTtl?: number;
  /** Refresh token lifetime in seconds. Default 604800 (7 days). */
  refreshTtl?: number;
  /** Seconds between automatic health checks of each site. Default 300. */
  healthCheckInterval?: number;
  /** Log requests to stderr. Default false. */
  logger?: boolean;
  /**
   * Let webhook endpoints target private and loopback addresses (10/8, 172.16/12, 192.168/16, 100.64/10,
   * fc00::/7, 127/8, ::1, localhost), for a receiver on this machine or network. Default false. Link-local,
   * metadata and unspecified addresses, and the emulator's own listener, are refused even with it.
   */
  allowPrivateWebhookTargets?: boolean;
  /**
   * Failed logins (password or 2FA code) allowed per user and per client address before a 429; null turns the
   * throttle off. Default: DEFAULT_LOGIN_THROTTLE.
   */
  loginThrottle?: LoginThrottleOptions | null;
  /**
   * The URL clients reach the emulator at, for absolute links (pagination `Link`). Default: the URL it
   * listens on. Never taken from a request's Host header.
   */
  publicUrl?: string;
  /**
   * Seconds a client has to send a whole request, headers and body (a slow-drip body is answered 408 and
   * the connection closed past it). Default 120; a larger snapshot goes up in resumable chunks.
   */
  requestTimeout?: number;
  /**
   * How the emulator fills in what the spec leaves "not shown" (profile.ts): `"default"` as docs/design.md
   * section 2 decided; `"minimal"` the other way wherever the spec allows (5 rows a page and no pagination
   * headers, 6-character ids, normalized URLs, an HTML 401, no Retry-After, empty 204s, unknown extra fields,
   * Rails-wrapped bodies), to test a client against a service that is not this emulator. Default "default".
   */
  profile?: ProfileName;
}

export interface LoginThrottleOptions {
  /** Failures per user (email) within the window before further attempts get 429. */
  perUser: number;
  /** Failures per client address within the window before further attempts get 429. */
  perAddress: number;
  /** Window and lockout length, seconds. */
  windowSeconds: number;
}

/**
 * Devise's lockable defaults to 20 attempts and a 1 h lock; GitLab's Rack::Attack for git auth to 10 failures
 * per minute and a 1 h ban; GitHub answers 403 for a while to every login of a user after "several" failures.
 * Here: 10 failures of one user, or 50 from one address, within 15 minutes lock that key for 15 minutes.
 */
export const DEFAULT_LOGIN_THROTTLE: LoginThrottleOptions = { perUser: 10, perAddress: 50, windowSeconds: 15 * 60 };

const DEFAULT_HOST = "127.0.0.1";
const DEFAULT_STEP_SECONDS = 2;
const DEFAULT_ACCESS_TTL = 900;
const DEFAULT_REFRESH_TTL = 7 * 24 * 3600;
const DEFAULT_HEALTH_CHECK_INTERVAL = 300;
const DEFAULT_REQUEST_TIMEOUT = 120;
export const JSON_BODY_LIMIT = 1024 * 1024;
export const UPLOAD_LIMIT = 5 * 1024 ** 3;

export interface ResolvedOptions {
  port: number;
  host: string;
  db: string;
  dataDir: string | undefined;
  seed: SeedFile | string | undefined;
  demo: boolean;
  stepSeconds: number;
  rateLimit: RateLimitOptions | null;
  accessTtl: number;
  refreshTtl: number;
  healthCheckInterval: number;
  logger: boolean;
  allowPrivateWebhookTargets: boolean;
  loginThrottle: LoginThrottleOptions | null;
  publicUrl: string | undefined;
  requestTimeout: number;
  profile: ProfileName;
}

export function resolveOptions(o: EmulatorOptions = {}): ResolvedOptions {
  return {
    port: o.port ?? 0,
    host: o.host ?? DEFAULT_HOST,
    db: o.db ?? ":memory:",
    dataDir: o.dataDir,
    seed: o.seed,
    demo: o.demo ?? false,
    stepSeconds: o.stepSeconds ?? DEFAULT_STEP_SECONDS,
    rateLimit: o.rateLimit ?? null,
    accessTtl: o.accessTtl ?? DEFAULT_ACCESS_TTL,
    refreshTtl: o.refreshTtl ?? DEFAULT_REFRESH_TTL,
    healthCheckInterval: o.healthCheckInterval ?? DEFAULT_HEALTH_CHECK_INTERVAL,
    logger: o.logger ?? false,
    allowPrivateWebhookTargets: o.allowPrivateWebhookTargets ?? false,
    loginThrottle: o.loginThrottle === undefined ? DEFAULT_LOGIN_THROTTLE : o.loginThrottle,
    publicUrl: o.publicUrl?.replace(/\/+$/, ""),
    requestTimeout: o.requestTimeout ?? DEFAULT_REQUEST_TIMEOUT,
    profile: o.profile ?? "default",
  };
}
