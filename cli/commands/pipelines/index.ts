// `siteops pipelines list|get`: upgrade pipelines (newest first per site).

import { flagInt, flagString } from "../../args.js";
import type { UpgradePipeline } from "../../../src/index.js";
import { EXIT } from "../../exit-codes.js";
import { printStream } from "../../output/printer.js";
import { locatePipeline, PIPELINE_FIELDS, pipelineColumns, showPipeline } from "../../pipelines.js";
import { defineCommand } from "../../runner.js";
import { SELECTION_FLAGS, selectionOf, selectSites } from "../../sites.js";
import type { LeafSpec } from "../../spec.js";

const list: LeafSpec = {
  name: "list",
  aliases: ["ls"],
  summary: "list the upgrade pipelines of one or more sites",
  flags: [...SELECTION_FLAGS, { name: "limit", type: "string", value: "N", description: "at most N pipelines per site" }],
  jsonFields: PIPELINE_FIELDS,
  async run(ctx, parsed) {
    const selection = selectionOf(parsed);
    const limit = flagInt(parsed, "limit", 1, Number.MAX_SAFE_INTEGER);
    const client = await ctx.client();
    const sites = await selectSites(client, selection, ctx.signal);
    async function* all(): AsyncGenerator<UpgradePipeline> {
      for (const site of sites) {
        let n = 0;
        for await (const p of client.upgradePipelines.list(site.id, { per_page: 100 }, { signal: ctx.signal })) {
          yield p;
          if (limit !== undefined && ++n >= limit) break;
        }
      }
    }
    await printStream(ctx, all(), pipelineColumns(ctx), { empty: "no upgrade pipelines" });
    return EXIT.OK;
  },
};

const get: LeafSpec = {
  name: "get",
  aliases: ["view"],
  summary: "show one upgrade pipeline and its steps",
  flags: [{ name: "site", short: "s", type: "string", value: "ID|NAME", description: "its site (found from the activity log when omitted)" }],
  args: [{ name: "PIPELINE_ID", required: true }],
  jsonFields: PIPELINE_FIELDS,
  async run(ctx, parsed) {
    const client = await ctx.client();
    showPipeline(ctx, await locatePipeline(client, parsed.args[0]!, flagString(parsed, "site"), ctx.signal));
    return EXIT.OK;
  },
};

export default defineCommand({ name: "pipelines", summary: "list and show upgrade pipelines", subcommands: [list, get] });
