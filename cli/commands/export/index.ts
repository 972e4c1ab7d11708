// `siteops export terraform|cdktn`: the account's sites and webhook endpoints (or one --shard of them) as
// configuration that adopts them, with import blocks (issue 27, item 3). The objects and their keys are read
// once (provider/export/fleet.ts, over the core's site selection) and rendered as HCL or as a CDK Terrain app;
// the keys of the earlier export (the file --out replaces, or --keys-from) are kept (issue 47 item 4).

import path from "node:path";
import { flagBool, flagString, type FlagSpec, type Parsed } from "../../args.js";
import { type SiteOps } from "../../../src/index.js";
import { formatShard } from "../../../src/fleet.js";
import type { Context } from "../../context.js";
import { EXIT } from "../../exit-codes.js";
import { defineCommand } from "../../runner.js";
import { shardFlag } from "../../sites.js";
import type { LeafSpec } from "../../spec.js";
import type { FleetEntries } from "../../../provider/export/fleet.js";
import type { KeyForm } from "../../../provider/export/keys.js";
import type { ExportForm } from "../../../provider/export/terraform.js";
import { readPreviousKeys } from "./keys-file.js";
import { resolveOut, writeOut } from "./out-file.js";

// The renderers are imported when a command runs, not with the declarations (help, completion, the generated
// reference load those alone).
const FORMS: readonly ExportForm[] = ["map", "blocks"];

const COMMON_FLAGS: FlagSpec[] = [
  {
    name: "shard",
    type: "string",
    value: "I/N",
    description: "only the sites (and webhook endpoints) of shard I of N, as --shard and provider::siteops::shard split them",
  },
  {
    name: "out",
    short: "o",
    type: "string",
    value: "FILE|DIR",
    description: "write to this file, or into this directory (default: standard output); missing directories are created",
  },
  { name: "force", type: "boolean", description: "with --out: replace the file if it exists (keeping the keys it gave each object)" },
  {
    name: "keys-from",
    type: "string",
    value: "FILE",
    description: "keep the keys (resource addresses) an earlier export gave each object it holds (default: the file --out replaces)",
  },
];

/** Reads the fleet and writes what `render` makes of it; the --out target and the earlier export's keys are read
 * before any request. */
async function exportFleet(
  ctx: Context,
  parsed: Parsed,
  defaultName: string,
  form: KeyForm,
  render: (entries: FleetEntries, scope: string | undefined) => string,
  next: (file: string | undefined) => string,
) {
  const shard = shardFlag(flagString(parsed, "shard"));
  const out = flagString(parsed, "out");
  const force = flagBool(parsed, "force") === true;
  const file = out === undefined ? undefined : resolveOut(out, defaultName, force);
  const keysFrom = flagString(parsed, "keys-from");
  const previous =
    keysFrom !== undefined ? readPreviousKeys(keysFrom, "--keys-from", false) : file !== undefined && force ? readPreviousKeys(file, "--out", true) : undefined;
  const client: SiteOps = await ctx.client();
  const { describeCounts, fleetEntries, readFleet } = await import("../../../provider/export/fleet.js");
  const entries = fleetEntries(await readFleet(client, { ...(shard ? { shard } : {}), signal: ctx.signal }), { form, ...(previous ? { previous } : {}) });
  const scope = shard ? `shard ${formatShard(shard)}` : undefined;
  const text = render(entries, scope);
  if (file === undefined) ctx.stdout.write(text);
  else writeOut(file, text, force);
  if (!ctx.quiet) {
    const kept = previous
      ? entries.sites.filter((e) => previous.siteops_site.get(e.id)?.key === e.key).length +
        entries.webhookEndpoints.filter((e) => previous.siteops_webhook_endpoint.get(e.id)?.key === e.key).length
      : 0;
    const keeping = previous ? ` (${kept} keep the keys ${keysFrom ?? "the file it replaces"} gave them)` : "";
    ctx.stderr.write(`exported ${describeCounts(entries)}${scope ? ` of ${scope}` : ""}${file ? ` to ${file}` : ""}${keeping}; ${next(file)}\n`);
  }
  return EXIT.OK;
}

const terraform: LeafSpec = {
  name: "terraform",
  aliases: ["tf"],
  summary: "write HCL that imports every site and webhook endpoint (resources + import blocks)",
  description:
    "Then `terraform plan` shows them all to import and nothing to add, change or destroy, and `terraform apply` imports them. " +
    "The map form (default) is one resource block per type over a `locals` map keyed by a slug of the name (needs Terraform 1.7); " +
    "blocks is one resource and one import block per object.",
  flags: [
    ...COMMON_FLAGS,
    {
      name: "form",
      type: "string",
      value: "FORM",
      choices: FORMS,
      description: "map (for_each over a locals map, the default) or blocks (one block per object)",
    },
    { name: "with-provider", type: "boolean", description: "also write required_providers and an empty provider block (for a new configuration)" },
  ],
  examples: [
    "siteops export terraform --out adopt/ --with-provider && cd adopt && terraform init && terraform plan",
    "siteops export terraform --shard 2/4 --form blocks --out shard-2.tf",
  ],
  async run(ctx, parsed) {
    const form = (flagString(parsed, "form") ?? "map") as ExportForm;
    const withProvider = flagBool(parsed, "with-provider") === true;
    const { renderTerraform } = await import("../../../provider/export/terraform.js");
    return exportFleet(
      ctx,
      parsed,
      "siteops-import.tf",
      form,
      (entries, scope) => renderTerraform(entries, { form, withProvider, ...(scope ? { scope } : {}) }),
      (file) => {
        const dir = file === undefined ? "." : path.dirname(file);
        return `next: ${dir === "." ? "" : `cd ${dir}, then `}terraform init, then terraform plan (shows them to import), then terraform apply`;
      },
    );
  },
};

const cdktn: LeafSpec = {
  name: "cdktn",
  summary: "write a CDK Terrain app (TypeScript) that imports every site and webhook endpoint",
  description:
    "The app uses the generated bindings (siteops/cdktn): one Site or WebhookEndpoint per object, each imported from its id. " +
    "`npx tsx FILE` synthesizes cdktf.out/stacks/siteops/cdk.tf.json, where `terraform plan` shows them all to import.",
  flags: COMMON_FLAGS,
  examples: ["siteops export cdktn --out main.ts && npx tsx main.ts && cd cdktf.out/stacks/siteops && terraform init && terraform plan"],
  async run(ctx, parsed) {
    const { renderCdktn } = await import("../../../provider/export/cdktn.js");
    return exportFleet(
      ctx,
      parsed,
      "siteops-import.ts",
      "cdktn",
      (entries, scope) => renderCdktn(entries, scope ? { scope } : {}),
      () => "next: npx tsx on it, then terraform init and terraform plan in cdktf.out/stacks/siteops",
    );
  },
};

export default defineCommand({
  name: "export",
  summary: "write Terraform or CDK Terrain configuration that adopts the existing fleet",
  subcommands: [terraform, cdktn],
});
