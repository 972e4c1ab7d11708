// Compatibility profiles: every choice the emulator makes where the spec says "not shown", in one table.
// `default` is what docs/design.md section 2 decided and the whole toolkit was built against; `minimal` makes
// the other choice wherever the spec allows one, so that a client that works against it does not depend on
// this emulator's habits (issue 36). Pagination, ids, URLs, the error handler, the rate limiter and the
// reply hooks (profile-hooks.ts) read their settings from here; nothing else asks which profile runs.
import { normalizedUrl } from "./site-urls.js";

export type ProfileName = "default" | "minimal";

export const PROFILE_NAMES: readonly ProfileName[] = ["default", "minimal"];

export interface Profile {
  readonly name: ProfileName;
  /** Alphanumerics after `prefix_` in every id the emulator issues (API tokens keep their own shape). */
  readonly idLength: number;
  /**
   * `fixedPageSize`: every list page has this many rows and `per_page` is ignored (null: `per_page`, default
   * 20, max 100). `headers`: send `Link`, `Current-Page`, `Page-Limit`, `Total-Pages`, `Total-Count`.
   */
  readonly pagination: { readonly fixedPageSize: number | null; readonly headers: boolean };
  /** A site's or webhook endpoint's `url` as stored and returned, from the value the client sent (valid). */
  readonly storedUrl: (url: string) => string;
  /**
   * The 401 for missing or invalid credentials on an authenticated endpoint: the JSON error, or what Rails'
   * `authenticate_or_request_with_http_token` sends (text/html, `HTTP Token: Access denied.`).
   */
  readonly credentialsChallenge: "json" | "rails-html";
  /** `RateLimit-Limit/-Remaining/-Reset` on API answers and `Retry-After` on a 429 (rate limit, login throttle). */
  readonly rateLimitHeaders: boolean;
  /** Routes (`METHOD /path/:param`) answering 204 with no body where the default answers 200 JSON. */
  readonly noContent: readonly string[];
  /** Fields no client knows, added to every resource object of a 2xx JSON answer; null: none. */
  readonly extraFields: ((selfPath: string) => Record<string, unknown>) | null;
  /** Create/update routes that also take their body wrapped Rails-style under this name (`{"site": {...}}`). */
  readonly bodyWrappers: Readonly<Record<string, string>>;
}

const DEFAULT: Profile = {
  name: "default",
  idLength: 20,
  pagination: { fixedPageSize: null, headers: true },
  storedUrl: (url) => url,
  credentialsChallenge: "json",
  rateLimitHeaders: true,
  noContent: [],
  extraFields: null,
  bodyWrappers: {},
};

const MINIMAL: Profile = {
  name: "minimal",
  idLength: 6,
  pagination: { fixedPageSize: 5, headers: false },
  storedUrl: normalizedUrl,
  credentialsChallenge: "rails-html",
  rateLimitHeaders: false,
  noContent: ["POST /api/v1/jwt/revoke"],
  extraFields: (selfPath) => ({ tenant_region: "eu-west-1", links: { self: selfPath }, schema_revision: 3 }),
  bodyWrappers: {
    "POST /api/v1/sites": "site",
    "PATCH /api/v1/sites/:id": "site",
    "POST /api/v1/webhook_endpoints": "webhook_endpoint",
    "PATCH /api/v1/webhook_endpoints/:id": "webhook_endpoint",
    "POST /api/v1/sites/:site_id/snapshots": "snapshot",
    "POST /api/v1/sites/:site_id/upgrade_pipelines": "upgrade_pipeline",
    "POST /api/v1/sites/:site_id/upgrade_pipelines/:id/approve": "upgrade_pipeline",
    "PATCH /api/v1/sites/:site_id/vulnerability_records/:id": "vulnerability_record",
  },
};

export const PROFILES: Readonly<Record<ProfileName, Profile>> = { default: DEFAULT, minimal: MINIMAL };
