// provider::siteops::shard with the real terraform: its values for 1,000 ids equal the core's shardOf (which
// the CLI's --shard and the action's shard use), its errors point at the argument, and the schema lists it.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shardOf } from "../../src/fleet.js";
import { Terraform } from "./harness.js";

let tf: Terraform;
beforeAll(async () => {
  tf = await Terraform.start();
});
afterAll(async () => {
  await tf?.close();
});

const REQUIRED = `terraform {
  required_providers {
    siteops = { source = "siteops/siteops" }
  }
}
`;

/** Ids as the service makes them: "site_" and 20 alphanumerics. */
function siteIds(n: number): string[] {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  return Array.from({ length: n }, () => `site_${[...randomBytes(20)].map((b) => alphabet[b % alphabet.length]).join("")}`);
}

describe("provider::siteops::shard", () => {
  it("equals the core's shardOf for 1,000 ids and several shard counts", async () => {
    const ids = siteIds(1000);
    const counts = [1, 7, 16, 256];
    tf.write(
      REQUIRED +
        `
locals {
  ids = jsondecode(file("\${path.module}/ids.json"))
}
${counts.map((c) => `output "shards_${c}" {\n  value = [for id in local.ids : provider::siteops::shard(id, ${c})]\n}\n`).join("")}`,
    );
    tf.write(JSON.stringify(ids), "ids.json");
    await tf.init();
    await tf.apply();
    const out = JSON.parse((await tf.ok(["output", "-json"])).stdout) as Record<string, { value: number[] }>;
    for (const c of counts) {
      const expected = ids.map((id) => shardOf(id, c));
      expect(out[`shards_${c}`]!.value).toEqual(expected);
    }
    // The split is not degenerate: 16 shards of 1,000 ids all get some.
    expect(new Set(out.shards_16!.value).size).toBe(16);
  });

  it("reports a bad count or an empty id against the argument", async () => {
    tf.remove("ids.json");
    tf.write(REQUIRED + 'output "bad" {\n  value = provider::siteops::shard("site_abc", 257)\n}\n');
    const big = await tf.plan();
    expect(big.code).toBe(1);
    expect(big.stderr).toContain('Invalid value for "count" parameter');
    expect(big.stderr).toMatch(/shard count is 257, above GitHub\s+Actions' limit of 256/);
    tf.write(REQUIRED + 'output "bad" {\n  value = provider::siteops::shard("", 4)\n}\n');
    const empty = await tf.plan();
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('Invalid value for "site_id" parameter');
  });

  it("is listed in the provider schema", async () => {
    const schema = JSON.parse((await tf.ok(["providers", "schema", "-json"])).stdout) as {
      provider_schemas: Record<string, { functions?: Record<string, { return_type: unknown; parameters: { name: string; type: unknown }[] }> }>;
    };
    const fn = schema.provider_schemas["registry.terraform.io/siteops/siteops"]!.functions!.shard!;
    expect(fn.return_type).toBe("number");
    expect(fn.parameters.map((p) => [p.name, p.type])).toEqual([
      ["site_id", "string"],
      ["count", "number"],
    ]);
  });
});
