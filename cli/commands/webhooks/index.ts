// `siteops webhooks list|create|delete`: the account's webhook endpoints. The signing secret is in the
// create response only: it is printed once, then.

import { flagBool } from "../../args.js";
import type { WebhookEndpoint, WebhookEndpointCreateParams } from "../../../src/index.js";
import type { Context } from "../../context.js";
import { EXIT, UsageError } from "../../exit-codes.js";
import { formatAgo } from "../../output/format.js";
import { printObject, printStream } from "../../output/printer.js";
import { statusColor } from "../../output/style.js";
import { paintCell, type Column } from "../../output/table.js";
import { confirm } from "../../prompt.js";
import { defineCommand } from "../../runner.js";
import type { LeafSpec } from "../../spec.js";
import { resourceFields } from "../../wire-fields.js";
import { webhookEndpointFields } from "../../../wire/generated/fields.js";

/** An endpoint's fields as these commands show and take them: the endpoint's field table, less what differs here. */
export const WEBHOOK_ENDPOINT = resourceFields(webhookEndpointFields, {
  enabled_events: {
    label: "events",
    flag: "event",
    short: "e",
    value: "TYPE",
    description: "an event type to deliver, e.g. snapshot.completed (default: all)",
  },
  description: { value: "TEXT" },
  status: {
    set: {
      flag: { name: "disabled", type: "boolean", description: "create it disabled" },
      value: (parsed) => (flagBool(parsed, "disabled") ? "disabled" : undefined),
    },
  },
});

const FIELDS = WEBHOOK_ENDPOINT.jsonFields;
const WEBHOOK_ID = /^we_[A-Za-z0-9]+$/;

function columns(ctx: Context): Column<WebhookEndpoint>[] {
  const style = ctx.stdout.style;
  const [id, status, events, url, created, description] = WEBHOOK_ENDPOINT.columns<WebhookEndpoint>([
    "id",
    "status",
    "enabled_events",
    "url",
    "created_at",
    "description",
  ]);
  return [
    id!,
    { ...status!, color: paintCell((s) => statusColor(style, s)) },
    { ...events!, value: (w) => (w.enabled_events ?? []).join(",") },
    url!,
    { ...created!, display: (w) => formatAgo(w.created_at) },
    description!,
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
  flags: WEBHOOK_ENDPOINT.flags("create"),
  jsonFields: FIELDS,
  examples: ["siteops webhooks create --url https://hooks.example.com/siteops --event snapshot.completed --event snapshot.failed"],
  async run(ctx, parsed) {
    const body = WEBHOOK_ENDPOINT.body(parsed, "create") as unknown as WebhookEndpointCreateParams;
    const client = await ctx.client();
    const endpoint = await client.webhookEndpoints.create(body, { signal: ctx.signal });
    printObject(ctx, endpoint, WEBHOOK_ENDPOINT.rows(endpoint));
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
