// `siteops sites list|get|create|update|delete|matrix`.

import { flagBool, flagInt, flagList, flagString } from "../../args.js";
import { type Site, type SiteCreateParams, type SiteUpdateParams } from "../../../src/index.js";
import { inShard, shardMatrix, shardOf, ShardSpecError, SITES_PER_PAGE, writeShardFiles } from "../../../src/fleet.js";
import type { Context } from "../../context.js";
import { CliError, EXIT, UsageError } from "../../exit-codes.js";
import { printObject, printStream } from "../../output/printer.js";
import { clean, safeJson } from "../../../common/sanitize.js";
import { statusColor } from "../../output/style.js";
import { paintCell, type Column } from "../../output/table.js";
import { confirm } from "../../prompt.js";
import { defineCommand } from "../../runner.js";
import { listSites, resolveSite, shardFlag, SITE_STATUSES, statusFlag } from "../../sites.js";
import type { LeafSpec } from "../../spec.js";
import { resourceFields } from "../../wire-fields.js";
import { siteFields } from "../../../wire/generated/fields.js";

const VERSION = /^\d+\.\d+$/;

function version(flag: string, value: string): string {
  if (!VERSION.test(value)) throw new UsageError(`--${flag} must be a major.minor version such as 6.8 (got ${JSON.stringify(value)})`);
  return value;
}

/** A site's fields as these commands show and take them: the site's field table, less what differs here. */
export const SITE = resourceFields(siteFields, {
  wp_version: { label: "wordpress", column: "WP", flag: "wp", value: "X.Y", check: version },
  php_version: { flag: "php", value: "X.Y", check: version },
});

/** What --json=FIELDS takes of a site: every field the service shows. */
const SITE_FIELDS = SITE.jsonFields;

export function siteColumns(ctx: Context): Column<Site>[] {
  const style = ctx.stdout.style;
  return SITE.columns<Site>(["id", "name", "status", "wp_version", "php_version", "url"]).map((c) =>
    c.header === "STATUS" ? { ...c, color: paintCell((w) => statusColor(style, w)) } : c,
  );
}

function showSite(ctx: Context, site: Site): void {
  printObject(ctx, site, SITE.rows(site));
}

const SITE_FLAGS = SITE.flags("update");

/** "--a, --b or --c" */
const orList = (items: readonly string[]): string => (items.length > 1 ? `${items.slice(0, -1).join(", ")} or ${items.at(-1)}` : (items[0] ?? ""));

const list: LeafSpec = {
  name: "list",
  aliases: ["ls"],
  summary: "list the account's sites",
  flags: [
    {
      name: "status",
      type: "string",
      multiple: true,
      value: "STATUS",
      description: `only sites in this state (${SITE_STATUSES.join(", ")}; comma-separated or repeated)`,
    },
    { name: "shard", type: "string", value: "I/N", description: "only the sites of shard I of N (see siteops sites matrix)" },
    { name: "limit", type: "string", value: "N", description: "at most N sites" },
  ],
  jsonFields: SITE_FIELDS,
  examples: ["siteops sites list", "siteops sites list --status down,degraded", "siteops sites list --json=id,name | jq -r '.[].id'"],
  async run(ctx, parsed) {
    const statuses = new Set(statusFlag(flagList(parsed, "status")));
    const shard = shardFlag(flagString(parsed, "shard"));
    const limit = flagInt(parsed, "limit", 1, Number.MAX_SAFE_INTEGER);
    const client = await ctx.client();
    // Page by page (--jsonl prints each as it comes) through the same pagination as listAllSites: every page
    // until the server says it was the last.
    await printStream(ctx, client.sites.list({ per_page: SITES_PER_PAGE }, { signal: ctx.signal }), siteColumns(ctx), {
      limit,
      filter: (s) => (statuses.size === 0 || statuses.has(s.status)) && (!shard || inShard(s.id, shard)),
      empty: "no sites",
    });
    return EXIT.OK;
  },
};

const get: LeafSpec = {
  name: "get",
  aliases: ["view"],
  summary: "show one site",
  flags: [],
  args: [{ name: "SITE", required: true }],
  jsonFields: SITE_FIELDS,
  async run(ctx, parsed) {
    const client = await ctx.client();
    showSite(ctx, await resolveSite(client, parsed.args[0]!, ctx.signal));
    return EXIT.OK;
  },
};

const create: LeafSpec = {
  name: "create",
  summary: "add a site",
  flags: SITE.flags("create"),
  jsonFields: SITE_FIELDS,
  examples: ["siteops sites create --name Blog --url https://blog.example.com --wp 6.8 --php 8.3"],
  async run(ctx, parsed) {
    const body = SITE.body(parsed, "create") as unknown as SiteCreateParams;
    const client = await ctx.client();
    showSite(ctx, await client.sites.create(body, { signal: ctx.signal }));
    return EXIT.OK;
  },
};

const update: LeafSpec = {
  name: "update",
  aliases: ["edit"],
  summary: "change a site's name, URL or versions",
  flags: SITE_FLAGS,
  args: [{ name: "SITE", required: true }],
  jsonFields: SITE_FIELDS,
  async run(ctx, parsed) {
    const body = SITE.body(parsed, "update") as SiteUpdateParams;
    if (Object.keys(body).length === 0) throw new UsageError(`nothing to change: give ${orList(SITE_FLAGS.map((f) => `--${f.name}`))}`);
    const client = await ctx.client();
    const site = await resolveSite(client, parsed.args[0]!, ctx.signal);
    showSite(ctx, await client.sites.update(site.id, body, { signal: ctx.signal }));
    return EXIT.OK;
  },
};

const remove: LeafSpec = {
  name: "delete",
  aliases: ["rm"],
  summary: "delete a site with its snapshots, pipelines and checks",
  flags: [{ name: "yes", short: "y", type: "boolean", description: "do not ask for confirmation (required when not on a terminal)" }],
  args: [{ name: "SITE", required: true }],
  async run(ctx, parsed) {
    const client = await ctx.client();
    const site = await resolveSite(client, parsed.args[0]!, ctx.signal);
    await confirm(process, flagBool(parsed, "yes") === true, `delete site ${clean(site.name)} (${clean(site.id)}) with all its snapshots`, site.name);
    await client.sites.delete(site.id, { signal: ctx.signal });
    if (!ctx.quiet) ctx.stderr.write(`deleted site ${clean(site.id)}\n`);
    return EXIT.OK;
  },
};

const matrix: LeafSpec = {
  name: "matrix",
  summary: "print a GitHub Actions matrix that splits the fleet into N stable shards",
  description:
    'Prints {"include":[{"shard":"1/N"},...]} for `strategy.matrix` (fromJSON); each job then runs on its shard,\n' +
    "e.g. siteops snapshot create --all --shard ${{ matrix.shard }}. A site's shard derives from its id, so it\n" +
    "stays in its shard as the fleet changes. At most 256 shards (GitHub's limit of jobs per matrix).\n" +
    "With --out DIR it lists the fleet once and writes each shard's sites to DIR/shard-I-of-N.json, beside\n" +
    "DIR/matrix.json, and each matrix entry names its file (sites_file): a shard job given\n" +
    "--sites-from DIR/shard-I-of-N.json (the action: sites-file) then makes no listing of its own.",
  flags: [
    { name: "shards", type: "string", value: "N", description: "number of shards, 1 to 256" },
    { name: "with-ids", type: "boolean", description: "also list each shard's site ids (reads the fleet)" },
    { name: "out", type: "string", value: "DIR", description: "write matrix.json and one shard file per shard into DIR (reads the fleet once)" },
  ],
  examples: [
    'echo "matrix=$(siteops sites matrix --shards 16)" >> "$GITHUB_OUTPUT"',
    'echo "matrix=$(siteops sites matrix --shards 16 --out shards)" >> "$GITHUB_OUTPUT"',
  ],
  async run(ctx, parsed) {
    const raw = flagString(parsed, "shards");
    if (raw === undefined) throw new UsageError("--shards N is required");
    const count = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
    const out = flagString(parsed, "out");
    if (out !== undefined && flagBool(parsed, "with-ids")) throw new UsageError("give --with-ids or --out DIR, not both (the shard files hold the sites)");
    let value: { include: { shard: string; site_ids?: string[]; sites_file?: string }[] };
    try {
      value = shardMatrix(count);
    } catch (err) {
      if (err instanceof ShardSpecError) throw new UsageError(`--shards: ${err.message.replace(/^shard count /, "")} (got ${JSON.stringify(raw)})`);
      throw err;
    }
    if (out !== undefined) {
      const fleet = await listSites(await ctx.client(), ctx.signal);
      try {
        value = writeShardFiles(out, fleet, count);
      } catch (err) {
        throw new CliError(`cannot write the shard files into ${out}: ${(err as Error).message}`, EXIT.FAILED);
      }
      if (!ctx.quiet) ctx.stderr.write(`wrote ${count} shard files of ${fleet.length} sites and matrix.json into ${out}\n`);
    } else if (flagBool(parsed, "with-ids")) {
      const ids: string[][] = value.include.map(() => []);
      for (const site of await listSites(await ctx.client(), ctx.signal)) ids[shardOf(site.id, count) - 1]!.push(site.id);
      value = { include: value.include.map((entry, i) => ({ ...entry, site_ids: ids[i]! })) };
    }
    ctx.stdout.write(`${safeJson(value)}\n`);
    return EXIT.OK;
  },
};

export default defineCommand({
  name: "sites",
  summary: "list, show, create, change and delete sites",
  subcommands: [list, get, create, update, remove, matrix],
});
