// `siteops activity`: the account's activity log (newest first), filtered by site, action and time;
// --follow keeps polling and prints new entries as they appear (oldest first), until Ctrl-C.

import { flagBool, flagInt, flagString } from "../../args.js";
import type { ActivityLog, ActivityLogListParams } from "../../../src/index.js";
import { setTimeout as sleep } from "node:timers/promises";
import type { Context } from "../../context.js";
import { parseDuration, parseTime } from "../../duration.js";
import { EXIT, UsageError } from "../../exit-codes.js";
import { formatLocalTime } from "../../output/format.js";
import { pick, printStream } from "../../output/printer.js";
import { safeJson } from "../../../common/sanitize.js";
import { renderTable, type Column } from "../../output/table.js";
import { defineCommand } from "../../runner.js";
import { siteIdOf } from "../../sites.js";
import { jsonFieldsOf } from "../../wire-fields.js";
import { activityLogFields } from "../../../wire/generated/fields.js";

const FIELDS = jsonFieldsOf(activityLogFields);
/** Entries shown before following, unless --limit says otherwise. */
const DEFAULT_LIMIT = 50;
const FOLLOW_BACKLOG = 10;
const DEFAULT_INTERVAL = "5s";

function columns(): Column<ActivityLog>[] {
  return [
    { header: "TIME", value: (a) => a.created_at, display: (a) => formatLocalTime(a.created_at) },
    { header: "ACTION", value: (a) => a.action },
    { header: "ACTOR", value: (a) => `${a.actor?.type ?? ""}:${a.actor?.name ?? ""}` },
    { header: "SUBJECT", value: (a) => a.subject_id ?? a.subject_type },
    { header: "SITE", value: (a) => a.site_id ?? "" },
    { header: "ID", value: (a) => a.id },
  ];
}

function printEntries(ctx: Context, entries: readonly ActivityLog[]): void {
  if (entries.length === 0) return;
  if (ctx.format === "jsonl") return ctx.stdout.write(entries.map((e) => `${safeJson(pick(e, ctx.fields))}\n`).join(""));
  if (ctx.quiet) return;
  // While following, each batch is its own table: no header (the widths of later entries are unknown).
  const lines = renderTable(entries, columns(), { tty: ctx.stdout.isTTY, style: ctx.stdout.style, width: ctx.stdout.columns });
  ctx.stdout.write(`${(ctx.stdout.isTTY ? lines.slice(1) : lines).join("\n")}\n`);
}

export default defineCommand({
  name: "activity",
  summary: "show the activity log; --follow for new entries as they happen",
  flags: [
    { name: "site", short: "s", type: "string", value: "ID|NAME", description: "only entries about this site" },
    { name: "action", type: "string", value: "ACTION", description: "only this action (snapshot.created), or a prefix such as snapshot.*" },
    { name: "since", type: "string", value: "TIME", description: "from this time: ISO 8601, or a duration ago (24h, 7d)" },
    { name: "until", type: "string", value: "TIME", description: "up to this time: ISO 8601, or a duration ago" },
    {
      name: "limit",
      short: "L",
      type: "string",
      value: "N",
      description: `at most N entries (default ${DEFAULT_LIMIT}; with --follow, ${FOLLOW_BACKLOG} before following)`,
    },
    { name: "follow", short: "f", type: "boolean", description: "keep polling and print new entries until interrupted" },
    { name: "interval", type: "string", value: "DURATION", description: `with --follow: time between polls (default ${DEFAULT_INTERVAL})` },
  ],
  jsonFields: FIELDS,
  examples: ["siteops activity --site Blog --since 24h", "siteops activity --action 'snapshot.*' --follow --jsonl"],
  async run(ctx, parsed) {
    const follow = flagBool(parsed, "follow") === true;
    if (follow && ctx.format === "json") throw new UsageError("--follow prints entries as they come: use --jsonl, not --json");
    if (flagString(parsed, "until") && follow) throw new UsageError("--follow and --until do not go together");
    const limit = flagInt(parsed, "limit", 1, 100_000) ?? (follow ? FOLLOW_BACKLOG : DEFAULT_LIMIT);
    const interval = parseDuration(flagString(parsed, "interval") ?? DEFAULT_INTERVAL, "--interval");
    const since = flagString(parsed, "since");
    const until = flagString(parsed, "until");
    const params: ActivityLogListParams = { per_page: Math.min(100, limit) };
    if (since) params.since = parseTime(since, "--since");
    if (until) params.until = parseTime(until, "--until");
    const action = flagString(parsed, "action");
    if (action) params.action = action;
    const client = await ctx.client();
    const site = flagString(parsed, "site");
    if (site) params.site_id = await siteIdOf(client, site, ctx.signal);

    if (!follow) {
      await printStream(ctx, client.activityLogs.list(params, { signal: ctx.signal }), columns(), { limit, empty: "no activity" });
      return EXIT.OK;
    }
    // As many pages as the backlog takes: a server may send fewer entries a page than per_page asks for.
    const backlog: ActivityLog[] = [];
    for await (const entry of client.activityLogs.list(params, { signal: ctx.signal })) {
      if (backlog.push(entry) >= limit) break;
    }
    backlog.reverse();
    if (ctx.stdout.isTTY && ctx.format === "human" && !ctx.quiet)
      ctx.stdout.write(`${renderTable([], columns(), { tty: true, style: ctx.stdout.style })[0]}\n`);
    printEntries(ctx, backlog);
    const seen = new Set(backlog.map((e) => e.id));
    let newest = timeOf(backlog.at(-1)) ?? new Date().toISOString();
    try {
      for (;;) {
        await sleep(interval, undefined, { signal: ctx.signal });
        const fresh: ActivityLog[] = [];
        // `since` is inclusive: entries of the same millisecond come again and are skipped by id.
        for await (const entry of client.activityLogs.list({ ...params, per_page: 100, since: newest }, { signal: ctx.signal })) {
          if (!seen.has(entry.id)) fresh.push(entry);
        }
        fresh.reverse();
        for (const e of fresh) seen.add(e.id);
        newest = timeOf(fresh.at(-1)) ?? newest;
        if (seen.size > 10_000) for (const id of [...seen].slice(0, 5_000)) seen.delete(id);
        printEntries(ctx, fresh);
      }
    } catch (err) {
      if (ctx.signal.aborted) return EXIT.INTERRUPTED;
      throw err;
    }
  },
});

/** An entry's `created_at` when the service sent one (the spec does not show the entries' fields): the next
 * poll asks for what came since. Without it, polls ask from the last time known and skip what was seen by id. */
function timeOf(entry: ActivityLog | undefined): string | undefined {
  const at: unknown = entry?.created_at;
  return typeof at === "string" ? at : undefined;
}
