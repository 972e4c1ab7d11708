// `siteops sites list|get|create|update|delete|matrix`.

import { flagBool, flagInt, flagList, flagString, type FlagSpec } from "../../args.js";
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

export const SITE_FIELDS = ["id", "name", "url", "status", "wp_version", "php_version", "created_at", "updated_at"] as const satisfies readonly (keyof Site)[];
const VERSION = /^\d+\.\d+$/;

export function siteColumns(ctx: Context): Column<Site>[] {
  const style = ctx.stdout.style;
  return [
    { header: "ID", value: (s) => s.id },
    { header: "NAME", value: (s) => s.name },
    { header: "STATUS", value: (s) => s.status, color: paintCell((w) => statusColor(style, w)) },
    { header: "WP", value: (s) => s.wp_version },
    { header: "PHP", value: (s) => s.php_version },
    { header: "URL", value: (s) => s.url },
  ];
}

function version(flag: string, value: string | undefined): string | undefined {
  if (value !== undefined && !VERSION.test(value)) throw new UsageError(`--${flag} must be a major.minor version such as 6.8 (got ${JSON.stringify(value)})`);
  return value;
}

function showSite(ctx: Context, site: Site): void {
  printObject(ctx, site, [
    ["id", site.id],
    ["name", site.name],
    ["url", site.url],
    ["status", site.status],
    ["wordpress", site.wp_version],
    ["php", site.php_version],
    ["created", site.created_at],
    ["updated", site.updated_at],
  ]);
}

const SITE_FLAGS: FlagSpec[] = [
  { name: "name", type: "string", value: "NAME", description: "display name" },
  { name: "url", type: "string", value: "URL", description: "the site's absolute http(s) URL" },
  { name: "wp", type: "string", value: "X.Y", description: "WordPress version (major.minor)" },
  { name: "php", type: "string", value: "X.Y", description: "PHP version (major.minor)" },
];

function siteBody(flags: { name?: string; url?: string; wp?: string; php?: string }): SiteUpdateParams {
  const body: SiteUpdateParams = {};
  if (flags.name !== undefined) body.name = flags.name;
  if (flags.url !== undefined) body.url = flags.url;
  if (flags.wp !== undefined) body.wp_version = version("wp", flags.wp);
  if (flags.php !== undefined) body.php_version = version("php", flags.php);
  return body;
}

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
  flags: SITE_FLAGS,
  jsonFields: SITE_FIELDS,
  examples: ["siteops sites create --name Blog --url https://blog.example.com --wp 6.8 --php 8.3"],
  async run(ctx, parsed) {
    const name = flagString(parsed, "name");
    const url = flagString(parsed, "url");
    if (!name) throw new UsageError("--name is required");
    if (!url) throw new UsageError("--url is required");
    const body = siteBody({ name, url, wp: flagString(parsed, "wp"), php: flagString(parsed, "php") }) as SiteCreateParams;
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
    const body = siteBody({ name: flagString(parsed, "name"), url: flagString(parsed, "url"), wp: flagString(parsed, "wp"), php: flagString(parsed, "php") });
    if (Object.keys(body).length === 0) throw new UsageError("nothing to change: give --name, --url, --wp or --php");
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
