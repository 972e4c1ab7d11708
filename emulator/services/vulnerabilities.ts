// Vulnerability records of a site: detected from the built-in catalogue for the site's versions,
// fixed when the site's versions move past them (an upgrade pipeline, or a PATCH of the site), and
// ignored or reopened by users.
import type { EmulatorContext } from "../context.js";
import type { Origin } from "../auth/auth-context.js";
import { FieldErrorCollector, badRequest, notFound } from "../errors.js";
import { newId } from "../ids.js";
import { affecting, catalogueEntry, type CatalogueEntry } from "../catalogue/vulnerabilities.js";
import { RECORD_STATUSES, type RecordPatch, type VulnerabilityRecordJson } from "../schemas/vulnerability-records.js";
import type { PageSource } from "../store/db.js";
import { findSite, type SiteRow } from "../store/sites.js";
import {
  findRecord,
  findRecordOf,
  insertRecord,
  markRecordFixed,
  recordToJson,
  recordsOfSite,
  recordsPage,
  reopenRecord,
  setRecordStatus,
  type VulnerabilityRecordRow,
} from "../store/vulnerability-records.js";
import { diff, recordActivity } from "./activity.js";

function announce(ctx: EmulatorContext, row: VulnerabilityRecordRow, action: "detected" | "fixed"): void {
  recordActivity(ctx, {
    accountId: row.account_id,
    siteId: row.site_id,
    action: `vulnerability_record.${action}`,
    subjectType: "VulnerabilityRecord",
    subjectId: row.id,
  });
  ctx.events.emit(row.account_id, `vulnerability_record.${action}`, recordToJson(row));
}

function insert(ctx: EmulatorContext, site: SiteRow, entry: CatalogueEntry): VulnerabilityRecordRow {
  const software = {
    type: entry.software.type,
    slug: entry.software.slug,
    name: entry.software.name,
    installed_version: entry.software.installed_version ?? site.wp_version,
  };
  const id = newId("vuln");
  insertRecord(ctx.db, {
    id,
    site_id: site.id,
    account_id: site.account_id,
    catalogue_key: entry.key,
    title: entry.title,
    description: entry.description,
    software: JSON.stringify(software),
    fixed_in: entry.fixed_in,
    cve: entry.cve,
    cvss: JSON.stringify(entry.cvss),
    severity: entry.severity,
    detected_at: ctx.clock.iso(),
  });
  return findRecord(ctx.db, id);
}

/** Records of this site that its current versions no longer have become `fixed`. */
export function fixVulnerabilities(ctx: EmulatorContext, siteId: string): void {
  const site = findSite(ctx.db, siteId);
  if (!site) return;
  const affected = new Set(affecting(site.wp_version, site.php_version).map((e) => e.key));
  for (const row of recordsOfSite(ctx.db, siteId)) {
    if (row.status === "fixed" || affected.has(row.catalogue_key) || !catalogueEntry(row.catalogue_key)) continue;
    markRecordFixed(ctx.db, row.id, ctx.clock.iso());
    announce(ctx, findRecord(ctx.db, row.id), "fixed");
  }
}

/**
 * Brings the site's records in line with its versions: new findings are recorded `open`, a `fixed`
 * record whose software is vulnerable again (a downgrade) reopens, and findings the versions no
 * longer have are fixed (ignored ones too: the fix is installed). An ignored record stays ignored
 * for as long as the versions still have it.
 */
export function detectVulnerabilities(ctx: EmulatorContext, siteId: string): void {
  const site = findSite(ctx.db, siteId);
  if (!site) return;
  ctx.db.transaction(() => {
    const existing = new Map(recordsOfSite(ctx.db, siteId).map((r) => [r.catalogue_key, r]));
    for (const entry of affecting(site.wp_version, site.php_version)) {
      const row = existing.get(entry.key);
      if (!row) {
        announce(ctx, insert(ctx, site, entry), "detected");
      } else if (row.status === "fixed") {
        reopenRecord(ctx.db, row.id, ctx.clock.iso());
        announce(ctx, findRecord(ctx.db, row.id), "detected");
      }
    }
    fixVulnerabilities(ctx, siteId);
  })();
}

export function listRecords(ctx: EmulatorContext, siteId: string, status: string | null): PageSource<VulnerabilityRecordJson> {
  if (status !== null && !(RECORD_STATUSES as readonly string[]).includes(status)) throw badRequest("status must be one of open, ignored, fixed");
  return recordsPage(ctx.db, siteId, status);
}

export function loadRecord(ctx: EmulatorContext, siteId: string, id: string): VulnerabilityRecordRow {
  const row = findRecordOf(ctx.db, siteId, id);
  if (!row) throw notFound();
  return row;
}

export function getRecord(ctx: EmulatorContext, siteId: string, id: string): VulnerabilityRecordJson {
  return recordToJson(loadRecord(ctx, siteId, id));
}

/** PATCH: ignore with a reason, or reopen; `fixed` is the service's to set, and a fixed record stays fixed. */
export function updateRecord(
  ctx: EmulatorContext,
  accountId: string,
  before: VulnerabilityRecordRow,
  body: RecordPatch,
  origin: Origin,
): VulnerabilityRecordJson {
  const errors = new FieldErrorCollector();
  if (body.status === "fixed") errors.add("status", "can't be set to fixed: the service fixes a record when the fix is installed");
  else if (before.status === "fixed" && body.status !== undefined) errors.add("status", "can't be changed once the record is fixed");
  const status = body.status ?? before.status;
  let reason: string | null = null;
  let comment: string | null = null;
  if (status === "ignored") {
    reason = body.dismissed_reason !== undefined ? body.dismissed_reason : before.dismissed_reason;
    comment = body.dismissed_comment !== undefined ? body.dismissed_comment : before.dismissed_comment;
    if (!reason) errors.add("dismissed_reason", "can't be blank");
  } else if (status === "fixed") {
    // Nothing a user can change on a fixed record.
    reason = before.dismissed_reason;
    comment = before.dismissed_comment;
  }
  errors.throwIfAny();

  const after = { ...before, status, dismissed_reason: reason, dismissed_comment: comment };
  const changes = diff(before, after, ["status", "dismissed_reason", "dismissed_comment"]);
  if (!changes) return recordToJson(before);
  ctx.db.transaction(() => {
    setRecordStatus(ctx.db, before.id, { status, reason, comment, at: ctx.clock.iso() });
    recordActivity(
      ctx,
      { accountId, siteId: before.site_id, action: "vulnerability_record.updated", subjectType: "VulnerabilityRecord", subjectId: before.id, changes },
      origin,
    );
  })();
  const json = recordToJson(findRecord(ctx.db, before.id));
  ctx.events.emit(accountId, "vulnerability_record.updated", json);
  return json;
}
