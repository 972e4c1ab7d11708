// Options of the emulator, with their defaults declared once (CLI flags map onto these).
import type { Role } from "./auth/auth-context.js";

export interface SeedUser {
  email: string;
  password: string;
  name: string;
  role: Role;
  otp_secret?: string;
}

/** The seed file of DESIGN.md section 3 (checked by seed.ts before anything is written). */
export interface SeedFile {
  accounts: {
    name: string;
    users: SeedUser[];
    api_tokens?: { token: string; user_email: string; name?: string }[];
    sites?: { name: string; url: string; wp_version?: string; php_version?: string }[];
  }[];
}

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
}

const DEFAULT_HOST = "127.0.0.1";
const DEFAULT_STEP_SECONDS = 2;
const DEFAULT_ACCESS_TTL = 900;
const DEFAULT_REFRESH_TTL = 7 * 24 * 3600;
const DEFAULT_HEALTH_CHECK_INTERVAL = 300;
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
  };
}
