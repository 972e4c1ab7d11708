// `siteops snapshots list|get|delete|create|prune` (also `siteops snapshot ...`).

import { flagBool, flagInt, flagString, type FlagSpec } from "../../args.js";
import type { Site, Snapshot } from "../../../src/index.js";
import type { Context } from "../../context.js";
import { EXIT, UsageError } from "../../exit-codes.js";
import { formatAgo, formatBytes } from "../../output/format.js";
import { printObject, printStream } from "../../output/printer.js";
import { clean } from "../../../common/sanitize.js";
import { statusColor } from "../../output/style.js";
import { paintCell, type Column } from "../../output/table.js";
import { confirm } from "../../prompt.js";
import { defineCommand } from "../../runner.js";
import { selectionOf, SELECTION_FLAGS, selectSites, siteIdOf } from "../../sites.js";
import type { LeafSpec } from "../../spec.js";
import { createLeaf } from "./create.js";
import { pruneLeaf } from "./prune.js";
import { jsonFieldsOf } from "../../wire-fields.js";
import { snapshotFields } from "../../../wire/generated/fields.js";

/** What --json=FIELDS takes of a snapshot: every field the service shows (wire/generated/fields.ts). */
export const SNAPSHOT_FIELDS = jsonFieldsOf(snapshotFields);

export function snapshotColumns(ctx: Context, sites?: Map<string, Site>): Column<Snapshot>[] {
  const style = ctx.stdout.style;
  const columns: Column<Snapshot>[] = [
    { header: "ID", value: (s) => s.id },
    { header: "STATUS", value: (s) => s.status, color: paintCell((w) => statusColor(style, w)) },
    { header: "SOURCE", value: (s) => s.source },
    { header: "TRIGGER", value: (s) => s.trigger },
    { header: "SIZE", value: (s) => s.size_bytes, display: (s) => formatBytes(s.size_bytes), align: "right" },
    { header: "CREATED", value: (s) => s.created_at, display: (s) => formatAgo(s.created_at) },
    { header: "DESCRIPTION", value: (s) => s.description },
  ];
  if (sites) columns.unshift({ header: "SITE", value: (s) => sites.get(s.site_id)?.name ?? s.site_id });
  return columns;
}

const list: LeafSpec = {
  name: "list",
  aliases: ["ls"],
  summary: "list snapshots of one or more sites (newest first per site)",
  flags: [...SELECTION_FLAGS, { name: "limit", type: "string", value: "N", description: "at most N snapshots per site" }],
  jsonFields: SNAPSHOT_FIELDS,
  examples: ["siteops snapshots list --site Blog", "siteops snapshots list --all --jsonl > snapshots.jsonl"],
  async run(ctx, parsed) {
    const selection = selectionOf(parsed);
    const limit = flagInt(parsed, "limit", 1, Number.MAX_SAFE_INTEGER);
    const client = await ctx.client();
    const sites = await selectSites(client, selection, ctx.signal);
    const several = sites.length > 1;
    async function* all(): AsyncGenerator<Snapshot> {
      for (const site of sites) {
        let n = 0;
        for await (const snapshot of client.snapshots.list(site.id, { per_page: 100 }, { signal: ctx.signal })) {
          yield snapshot;
          if (limit !== undefined && ++n >= limit) break;
        }
      }
    }
    await printStream(ctx, all(), snapshotColumns(ctx, several ? new Map(sites.map((s) => [s.id, s])) : undefined), { empty: "no snapshots" });
    return EXIT.OK;
  },
};

const SITE_FLAG: FlagSpec = { name: "site", short: "s", type: "string", value: "ID|NAME", description: "the snapshot's site (required)" };

async function siteOf(ctx: Context, parsed: Parameters<LeafSpec["run"]>[1]): Promise<string> {
  const ref = flagString(parsed, "site");
  if (!ref) throw new UsageError("--site ID|NAME is required: snapshots are addressed within their site");
  return siteIdOf(await ctx.client(), ref, ctx.signal);
}

export function showSnapshot(ctx: Context, s: Snapshot): void {
  printObject(ctx, s, [
    ["id", s.id],
    ["site", s.site_id],
    ["status", s.status],
    ["source", s.source],
    ["trigger", s.trigger],
    ["description", s.description],
    ["size", ctx.stdout.isTTY ? formatBytes(s.size_bytes) : s.size_bytes],
    ["sha256", s.checksum_sha256],
    ["wordpress", s.wp_version],
    ["php", s.php_version],
    ["created", s.created_at],
    ["completed", s.completed_at],
  ]);
}

const get: LeafSpec = {
  name: "get",
  aliases: ["view"],
  summary: "show one snapshot",
  flags: [SITE_FLAG],
  args: [{ name: "SNAPSHOT_ID", required: true }],
  jsonFields: SNAPSHOT_FIELDS,
  async run(ctx, parsed) {
    const siteId = await siteOf(ctx, parsed);
    showSnapshot(ctx, await (await ctx.client()).snapshots.get(siteId, parsed.args[0]!, { signal: ctx.signal }));
    return EXIT.OK;
  },
};

const remove: LeafSpec = {
  name: "delete",
  aliases: ["rm"],
  summary: "delete one snapshot",
  flags: [SITE_FLAG, { name: "yes", short: "y", type: "boolean", description: "do not ask for confirmation (required when not on a terminal)" }],
  args: [{ name: "SNAPSHOT_ID", required: true }],
  async run(ctx, parsed) {
    const siteId = await siteOf(ctx, parsed);
    const id = parsed.args[0]!;
    await confirm(process, flagBool(parsed, "yes") === true, `delete snapshot ${id}`, id);
    await (await ctx.client()).snapshots.delete(siteId, id, { signal: ctx.signal });
    if (!ctx.quiet) ctx.stderr.write(`deleted snapshot ${clean(id)}\n`);
    return EXIT.OK;
  },
};

export default defineCommand({
  name: "snapshots",
  summary: "create (one site or the fleet), list, show, delete and prune snapshots",
  subcommands: [createLeaf, pruneLeaf, list, get, remove],
});
