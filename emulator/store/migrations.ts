// Schema migrations, applied in order on start. Each entry runs once; the applied count is kept in
// SQLite's user_version. Never edit a shipped migration: append a new one.
//
// Conventions: `seq` (INTEGER PRIMARY KEY) gives insertion order for "oldest/newest first";
// `id` is the public prefixed id; JSON columns hold arrays/objects as text; times are ISO strings,
// scheduling columns (`*_ms`) are emulator-clock milliseconds.
export const MIGRATIONS: string[] = [
  `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

  CREATE TABLE accounts (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    personal INTEGER NOT NULL DEFAULT 0,
    owner_id TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );

  CREATE TABLE users (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    email TEXT NOT NULL UNIQUE COLLATE NOCASE,
    name TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    otp_secret TEXT,
    otp_last_step INTEGER,
    created_at TEXT NOT NULL
  );

  CREATE TABLE memberships (
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    role TEXT NOT NULL CHECK (role IN ('owner','admin','member')),
    created_at TEXT NOT NULL,
    PRIMARY KEY (account_id, user_id)
  );
  CREATE INDEX memberships_user ON memberships(user_id);

  CREATE TABLE api_tokens (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    token_hash TEXT NOT NULL UNIQUE,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    created_at TEXT NOT NULL,
    last_used_at TEXT,
    revoked_at TEXT
  );

  CREATE TABLE refresh_tokens (
    seq INTEGER PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    family_id TEXT NOT NULL,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    account_id TEXT NOT NULL,
    access_jti TEXT,
    expires_at_ms INTEGER NOT NULL,
    used_at TEXT,
    revoked_at TEXT,
    created_at TEXT NOT NULL
  );
  CREATE INDEX refresh_tokens_family ON refresh_tokens(family_id);

  CREATE TABLE revoked_jtis (jti TEXT PRIMARY KEY, expires_at_ms INTEGER NOT NULL);

  CREATE TABLE sites (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    url TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'unknown',
    wp_version TEXT NOT NULL,
    php_version TEXT NOT NULL,
    forced_health TEXT,
    next_health_check_ms INTEGER,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (account_id, url)
  );
  CREATE INDEX sites_account ON sites(account_id, seq);
  CREATE INDEX sites_health_due ON sites(next_health_check_ms);

  CREATE TABLE health_checks (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
    account_id TEXT NOT NULL,
    status TEXT NOT NULL,
    http_status INTEGER,
    response_time_ms INTEGER,
    wp_version TEXT NOT NULL,
    php_version TEXT NOT NULL,
    checks TEXT NOT NULL,
    checked_at TEXT NOT NULL
  );
  CREATE INDEX health_checks_site ON health_checks(site_id, seq);

  CREATE TABLE snapshots (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
    account_id TEXT NOT NULL,
    status TEXT NOT NULL,
    source TEXT NOT NULL,
    trigger TEXT NOT NULL,
    description TEXT,
    wp_version TEXT NOT NULL,
    php_version TEXT NOT NULL,
    size_bytes INTEGER,
    checksum_sha256 TEXT,
    data_path TEXT,
    upload_received INTEGER NOT NULL DEFAULT 0,
    upload_total INTEGER,
    error TEXT,
    next_step_ms INTEGER,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    completed_at TEXT
  );
  CREATE INDEX snapshots_site ON snapshots(site_id, seq);
  CREATE INDEX snapshots_due ON snapshots(next_step_ms);

  CREATE TABLE upgrade_pipelines (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
    account_id TEXT NOT NULL,
    status TEXT NOT NULL,
    from_wp_version TEXT NOT NULL,
    to_wp_version TEXT NOT NULL,
    from_php_version TEXT NOT NULL,
    to_php_version TEXT NOT NULL,
    snapshot_id TEXT,
    requires_approval INTEGER NOT NULL,
    approved_at TEXT,
    approved_by TEXT,
    comment TEXT,
    error TEXT,
    steps TEXT NOT NULL,
    next_step_ms INTEGER,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    completed_at TEXT
  );
  CREATE INDEX upgrade_pipelines_site ON upgrade_pipelines(site_id, seq);
  CREATE INDEX upgrade_pipelines_due ON upgrade_pipelines(next_step_ms);

  CREATE TABLE vulnerability_records (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    site_id TEXT NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
    account_id TEXT NOT NULL,
    catalogue_key TEXT NOT NULL,
    title TEXT NOT NULL,
    description TEXT NOT NULL,
    software TEXT NOT NULL,
    fixed_in TEXT,
    cve TEXT,
    cvss TEXT,
    severity TEXT NOT NULL,
    status TEXT NOT NULL,
    dismissed_reason TEXT,
    dismissed_comment TEXT,
    detected_at TEXT NOT NULL,
    fixed_at TEXT,
    updated_at TEXT NOT NULL,
    UNIQUE (site_id, catalogue_key)
  );
  CREATE INDEX vulnerability_records_site ON vulnerability_records(site_id, seq);

  CREATE TABLE activity_logs (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    account_id TEXT NOT NULL,
    site_id TEXT,
    action TEXT NOT NULL,
    actor TEXT NOT NULL,
    subject_type TEXT NOT NULL,
    subject_id TEXT,
    changes TEXT,
    ip_address TEXT,
    request_id TEXT,
    created_at TEXT NOT NULL
  );
  CREATE INDEX activity_logs_account ON activity_logs(account_id, seq);

  CREATE TABLE webhook_endpoints (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    url TEXT NOT NULL,
    description TEXT,
    enabled_events TEXT NOT NULL,
    status TEXT NOT NULL,
    secret TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX webhook_endpoints_account ON webhook_endpoints(account_id, seq);

  CREATE TABLE webhook_deliveries (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
    account_id TEXT NOT NULL,
    event_type TEXT NOT NULL,
    payload TEXT NOT NULL,
    status TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_ms INTEGER,
    last_status INTEGER,
    last_error TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX webhook_deliveries_due ON webhook_deliveries(next_attempt_ms);

  CREATE TABLE idempotency_keys (
    account_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    key TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    status INTEGER NOT NULL,
    body TEXT NOT NULL,
    created_at_ms INTEGER NOT NULL,
    PRIMARY KEY (account_id, user_id, key)
  );
  `,
  // The first characters of each API token, for the console's token list (the token itself is stored hashed).
  `ALTER TABLE api_tokens ADD COLUMN token_prefix TEXT;`,
  // The webhook-timestamp of a delivery's last attempt: with the payload and secret it gives the exact
  // signature the receiver got (the console shows it).
  `ALTER TABLE webhook_deliveries ADD COLUMN last_attempt_ts INTEGER;`,
  // Every request with an Idempotency-Key first deletes the keys past their TTL: without this index that
  // DELETE scanned the whole table, so creating N sites with keys cost O(N^2).
  `CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at_ms);`,
  // Abandoned uploads expire (issue 26): an upload snapshot still waiting for data 24 h after its creation
  // fails. Open uploads made before this migration get that deadline (next_step_ms) from their created_at;
  // the partial index serves the per-account cap on open uploads.
  `
  UPDATE snapshots SET next_step_ms = CAST(ROUND((julianday(created_at) - 2440587.5) * 86400000) AS INTEGER) + 86400000
    WHERE source = 'upload' AND status IN ('requested','in_progress') AND next_step_ms IS NULL;
  CREATE INDEX snapshots_open_uploads ON snapshots(account_id) WHERE source = 'upload' AND status IN ('requested','in_progress');
  `,
  // A site URL's key (site-urls.ts: the form two spellings of one URL share), indexed per account, so the
  // uniqueness check on create and on a change of url is one index lookup, not a scan of the account's URLs.
  // Existing rows get theirs from site_url_key (store/db.ts registers it: the function the store writes it with);
  // a URL that is not a site URL keeps NULL and matches nothing. Not UNIQUE: an older database may hold two
  // spellings of one URL (the scan missed a spelling that was stored first).
  `
  ALTER TABLE sites ADD COLUMN url_key TEXT;
  UPDATE sites SET url_key = site_url_key(url);
  CREATE INDEX sites_url_key ON sites(account_id, url_key);
  `,
];
