// Vulnerability records of a site: detected from the built-in catalogue for the site's versions,
// fixed when the site's versions move past them (an upgrade pipeline, or a PATCH of the site).
import { Type, type Static } from "typebox";
import type { EmulatorContext } from "../context.js";
import { recordActivity } from "../activity.js";
import { newId } from "../ids.js";
import { parseJson, stmt } from "../store/db.js";
import { affecting, catalogueEntry, type CatalogueEntry } from "../catalogue/vulnerabilities.js";

export const DISMISSED_REASONS = ["fix_started", "inaccurate", "no_bandwidth", "not_used", "tolerable_risk"] as const;

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const VulnerabilityRecordSchema = Type.Object({
  id: Type.String(),
  site_id: Type.String(),
  title: Type.String(),
  description: Type.String(),
  software: Type.Object({
    type: Type.Union([Type.Literal("core"), Type.Literal("plugin"), Type.Literal("theme")]),
    slug: Type.String(),
    name: Type.String(),
    installed_version: Type.String(),
  }),
  fixed_in: Nullable(Type.String()),
  cve: Nullable(Type.String()),
  cvss: Nullable(
    Type.Object({
      score: Type.Number(),
      vector: Type.String(),
      rating: Type.String(),
    }),
  ),
  severity: Type.Union([Type.Literal("low"), Type.Literal("medium"), Type.Literal("high"), Type.Literal("critical")]),
  status: Type.Union([Type.Literal("open"), Type.Literal("ignored"), Type.Literal("fixed")]),
  dismissed_reason: Nullable(Type.String()),
  dismissed_comment: Nullable(Type.String()),
  detected_at: Type.String(),
  fixed_at: Nullable(Type.String()),
  updated_at: Type.String(),
});
export type VulnerabilityRecordJson = Static<typeof VulnerabilityRecordSchema>;

export interface VulnerabilityRecordRow {
  seq: number;
  id: string;
  site_id: string;
  account_id: string;
  catalogue_key: string;
  title: string;
  description: string;
  software: string;
  fixed_in: string | null;
  cve: string | null;
  cvss: string | null;
  severity: VulnerabilityRecordJson["severity"];
  status: VulnerabilityRecordJson["status"];
  dismissed_reason: string | null;
  dismissed_comment: string | null;
  detected_at: string;
  fixed_at: string | null;
  updated_at: string;
}

export function serializeVulnerabilityRecord(row: VulnerabilityRecordRow): VulnerabilityRecordJson {
  return {
    id: row.id,
    site_id: row.site_id,
    title: row.title,
    description: row.description,
    software: parseJson(row.software, { type: "core", slug: "wordpress", name: "WordPress", installed_version: "" }),
    fixed_in: row.fixed_in,
    cve: row.cve,
    cvss: parseJson(row.cvss, null),
    severity: row.severity,
    status: row.status,
    dismissed_reason: row.dismissed_reason,
    dismissed_comment: row.dismissed_comment,
    detected_at: row.detected_at,
    fixed_at: row.fixed_at,
    updated_at: row.updated_at,
  };
}

interface SiteVersions {
  id: string;
  account_id: string;
  wp_version: string;
  php_version: string;
}

function siteVersions(ctx: EmulatorContext, siteId: string): SiteVersions | undefined {
  return stmt(ctx.db, "SELECT id, account_id, wp_version, php_version FROM sites WHERE id = ?").get(siteId) as SiteVersions | undefined;
}

function recordsOf(ctx: EmulatorContext, siteId: string): VulnerabilityRecordRow[] {
  return stmt(ctx.db, "SELECT * FROM vulnerability_records WHERE site_id = ? ORDER BY seq").all(siteId) as VulnerabilityRecordRow[];
}

export function loadRecord(ctx: EmulatorContext, id: string): VulnerabilityRecordRow {
  return stmt(ctx.db, "SELECT * FROM vulnerability_records WHERE id = ?").get(id) as VulnerabilityRecordRow;
}

function announce(ctx: EmulatorContext, row: VulnerabilityRecordRow, action: "detected" | "fixed"): void {
  recordActivity(ctx, {
    accountId: row.account_id,
    siteId: row.site_id,
    action: `vulnerability_record.${action}`,
    subjectType: "VulnerabilityRecord",
    subjectId: row.id,
  });
  ctx.events.emit(row.account_id, `vulnerability_record.${action}`, serializeVulnerabilityRecord(row));
}

function insertRecord(ctx: EmulatorContext, site: SiteVersions, entry: CatalogueEntry): VulnerabilityRecordRow {
  const now = ctx.clock.iso();
  const software = {
    type: entry.software.type,
    slug: entry.software.slug,
    name: entry.software.name,
    installed_version: entry.software.installed_version ?? site.wp_version,
  };
  const id = newId("vuln");
  stmt(
    ctx.db,
    `INSERT INTO vulnerability_records (id, site_id, account_id, catalogue_key, title, description, software, fixed_in, cve, cvss,
       severity, status, detected_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', ?, ?)`,
  ).run(
    id, site.id, site.account_id, entry.key, entry.title, entry.description, JSON.stringify(software), entry.fixed_in, entry.cve,
    JSON.stringify(entry.cvss), entry.severity, now, now,
  );
  return loadRecord(ctx, id);
}

/** Records of this site that its current versions no longer have become `fixed`. */
export function fixVulnerabilities(ctx: EmulatorContext, siteId: string): void {
  const site = siteVersions(ctx, siteId);
  if (!site) return;
  const affected = new Set(affecting(site.wp_version, site.php_version).map((e) => e.key));
  for (const row of recordsOf(ctx, siteId)) {
    if (row.status === "fixed" || affected.has(row.catalogue_key) || !catalogueEntry(row.catalogue_key)) continue;
    const now = ctx.clock.iso();
    stmt(ctx.db, "UPDATE vulnerability_records SET status = 'fixed', fixed_at = ?, updated_at = ? WHERE id = ?").run(now, now, row.id);
    announce(ctx, loadRecord(ctx, row.id), "fixed");
  }
}

/**
 * Brings the site's records in line with its versions: new findings are recorded `open`, a `fixed`
 * record whose software is vulnerable again (a downgrade) reopens, and findings the versions no
 * longer have are fixed (ignored ones too: the fix is installed). An ignored record stays ignored
 * for as long as the versions still have it.
 */
export function detectVulnerabilities(ctx: EmulatorContext, siteId: string): void {
  const site = siteVersions(ctx, siteId);
  if (!site) return;
  ctx.db.transaction(() => {
    const existing = new Map(recordsOf(ctx, siteId).map((r) => [r.catalogue_key, r]));
    for (const entry of affecting(site.wp_version, site.php_version)) {
      const row = existing.get(entry.key);
      if (!row) {
        announce(ctx, insertRecord(ctx, site, entry), "detected");
      } else if (row.status === "fixed") {
        const now = ctx.clock.iso();
        stmt(ctx.db, "UPDATE vulnerability_records SET status = 'open', fixed_at = NULL, updated_at = ? WHERE id = ?").run(now, row.id);
        announce(ctx, loadRecord(ctx, row.id), "detected");
      }
    }
    fixVulnerabilities(ctx, siteId);
  })();
}

/** Open records of a site by severity, for the health check. */
export function openSeverities(ctx: EmulatorContext, siteId: string): string[] {
  const rows = stmt(ctx.db, "SELECT severity FROM vulnerability_records WHERE site_id = ? AND status = 'open'").all(siteId) as {
    severity: string;
  }[];
  return rows.map((r) => r.severity);
}
