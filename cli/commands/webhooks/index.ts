// `siteops webhooks list|create|delete`: the account's webhook endpoints. The signing secret is in the
// create response only: it is printed once, then.

import { flagBool, flagList, flagString } from "../../args.js";
import type { WebhookEndpoint } from "../../../src/index.js";
import type { Context } from "../../context.js";
import { EXIT, UsageError } from "../../exit-codes.js";
import { formatAgo } from "../../output/format.js";
import { printObject, printStream } from "../../output/printer.js";
import { statusColor } from "../../output/style.js";
import { paintCell, type Column } from "../../output/table.js";
import { confirm } from "../../prompt.js";
import { defineCommand } from "../../runner.js";
import type { LeafSpec } from "../../spec.js";

const FIELDS = [
  "id",
  "url",
  "description",
  "enabled_events",
  "status",
  "secret",
  "created_at",
  "updated_at",
] as const satisfies readonly (keyof WebhookEndpoint)[];
const WEBHOOK_ID = /^we_[A-Za-z0-9]+$/;

function columns(ctx: Context): Column<WebhookEndpoint>[] {
  const style = ctx.stdout.style;
  return [
    { header: "ID", value: (w) => w.id },
    { header: "STATUS", value: (w) => w.status, color: paintCell((s) => statusColor(style, s)) },
    { header: "EVENTS", value: (w) => (w.enabled_events ?? []).join(",") },
    { header: "URL", value: (w) => w.url },
    { header: "CREATED", value: (w) => w.created_at, display: (w) => formatAgo(w.created_at) },
    { header: "DESCRIPTION", value: (w) => w.description },
  ];
}

const list: LeafSpec = {
  name: "list",
  aliases: ["ls"],
  summary: "list webhook endpoints",
  flags: [],
  jsonFields: FIELDS,
  async run(ctx) {
    const client = await ctx.client();
    await printStream(ctx, client.webhookEndpoints.list({ per_page: 100 }, { signal: ctx.signal }), columns(ctx), { empty: "no webhook endpoints" });
    return EXIT.OK;
  },
};

const create: LeafSpec = {
  name: "create",
  summary: "add a webhook endpoint (prints its signing secret, once)",
  flags: [
    { name: "url", type: "string", value: "URL", description: "where deliveries are POSTed (https)" },
    {
      name: "event",
      short: "e",
      type: "string",
      multiple: true,
      value: "TYPE",
      description: "an event type to deliver, e.g. snapshot.completed (default: all)",
    },
    { name: "description", type: "string", value: "TEXT", description: "what it is for" },
    { name: "disabled", type: "boolean", description: "create it disabled" },
  ],
  jsonFields: FIELDS,
  examples: ["siteops webhooks create --url https://hooks.example.com/siteops --event snapshot.completed --event snapshot.failed"],
  async run(ctx, parsed) {
    const url = flagString(parsed, "url");
    if (!url) throw new UsageError("--url is required");
    const events = flagList(parsed, "event")
      .flatMap((e) => e.split(","))
      .map((e) => e.trim())
      .filter(Boolean);
    const description = flagString(parsed, "description");
    const client = await ctx.client();
    const endpoint = await client.webhookEndpoints.create(
      {
        url,
        ...(events.length ? { enabled_events: events } : {}),
        ...(description !== undefined ? { description } : {}),
        ...(flagBool(parsed, "disabled") ? { status: "disabled" as const } : {}),
      },
      { signal: ctx.signal },
    );
    printObject(ctx, endpoint, [
      ["id", endpoint.id],
      ["url", endpoint.url],
      ["status", endpoint.status],
      ["events", (endpoint.enabled_events ?? []).join(", ")],
      ["description", endpoint.description],
      ["secret", endpoint.secret],
    ]);
    if (ctx.format === "human" && !ctx.quiet) ctx.stderr.write("Keep the secret now to verify deliveries: the service does not show it again.\n");
    return EXIT.OK;
  },
};

const remove: LeafSpec = {
  name: "delete",
  aliases: ["rm"],
  summary: "delete a webhook endpoint",
  flags: [{ name: "yes", short: "y", type: "boolean", description: "do not ask for confirmation (required when not on a terminal)" }],
  args: [{ name: "WEBHOOK_ID", required: true }],
  async run(ctx, parsed) {
    const id = parsed.args[0]!;
    if (!WEBHOOK_ID.test(id)) throw new UsageError(`${JSON.stringify(id)} is not a webhook endpoint id (we_...)`);
    await confirm(process, flagBool(parsed, "yes") === true, `delete webhook endpoint ${id}`, id);
    await (await ctx.client()).webhookEndpoints.delete(id, { signal: ctx.signal });
    if (!ctx.quiet) ctx.stderr.write(`deleted webhook endpoint ${id}\n`);
    return EXIT.OK;
  },
};

export default defineCommand({ name: "webhooks", summary: "list, create and delete webhook endpoints", subcommands: [list, create, remove] });
