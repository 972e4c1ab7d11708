// provider::siteops::shard(site_id, count): the 1-based shard of a site among `count` shards. It calls the
// core's shardOf, the function behind the CLI's `--shard I/N` and the GitHub Action's `shard` input, so a
// fleet split over Terraform workspaces agrees with the same fleet split over jobs.
import { FunctionError, type FunctionDefinition } from "../framework/function.js";
import { loadClient } from "../load-core.js";

export const shardFunction: FunctionDefinition = {
  name: "shard",
  summary: "The 1-based shard of a site among count shards, as the CLI's --shard and the action's shard compute it.",
  description:
    "Returns which of `count` shards (1 to `count`) the site belongs to. The shard depends on the site id alone, so a site stays in its shard as sites are added or removed, and it is the same number the CLI (`--shard I/N`, `siteops sites matrix`) and the GitHub Action (`shard: I/N`) use: a fleet split over Terraform workspaces agrees with the fleet split over jobs.",
  parameters: [
    { name: "site_id", type: "string", description: "The site id (`site_...`)." },
    { name: "count", type: "number", description: "How many shards: a whole number from 1 to 256 (a GitHub Actions matrix's limit)." },
  ],
  returns: "number",
  async run([siteId, count]) {
    if (typeof siteId !== "string" || siteId.trim() === "") throw new FunctionError("site_id must be a site id such as site_abc..., not an empty string.", 0);
    const n = typeof count === "number" ? count : Number(count);
    const core = await loadClient();
    try {
      return core.shardOf(siteId, n);
    } catch (err) {
      if (err instanceof core.ShardSpecError) throw new FunctionError(err.message, 1);
      throw err;
    }
  },
};
