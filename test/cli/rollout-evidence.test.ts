// `siteops upgrade rollout` against a second server that follows the contract but names its pipeline states its own
// way (the emulator's /__emulator/pipeline-states: pending -> upgrading -> completed). The spec shows no pipeline
// states; it shows the site's versions: a site whose own wp_version reaches the target (and whose health check after
// it is healthy) passes at once, not after the wave's --timeout; a pipeline in a state siteops does not know, with
// no change to it or the site, is reported as such after --unknown-state-wait, well before the --timeout.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Site } from "../../src/index.js";
import { runCli, useTestBed } from "./helpers.js";

const bed = useTestBed({}, {}, { each: true });
const SECOND_SERVER = { running: "upgrading", applying: "upgrading", awaiting_approval: "waiting", succeeded: "completed", rolled_back: "reverted" };

interface Report {
  outcome: string;
  results: { site: { id: string }; outcome: string; pipeline: { status: string } | null; error: { code: string; message: string } | null }[];
}

async function fleet(n: number): Promise<Site[]> {
  const out: Site[] = [];
  for (let i = 1; i <= n; i++) out.push(await bed.emu.so.sites.create({ name: `Second ${i}`, url: `https://second-${i}.example.test`, wp_version: "6.5" }));
  return out;
}

describe("a server whose pipeline states siteops does not know", () => {
  it("judges each site on its own versions reaching the target and a health check after it: passed in seconds", async () => {
    await bed.emu.control("POST", "pipeline-states", { names: SECOND_SERVER });
    const sites = await fleet(2);
    const file = path.join(bed.box.dir, "second.json");
    const started = Date.now();
    const r = await runCli(
      [
        "upgrade",
        "rollout",
        ...sites.flatMap((s) => ["--site", s.id]),
        "--to-wp",
        "6.8",
        "--waves",
        "1,100%",
        "--gate",
        "pipeline,health",
        "--timeout",
        "10m",
        "--report",
        file,
      ],
      { env: bed.env },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(Date.now() - started).toBeLessThan(60_000);
    const doc = JSON.parse(readFileSync(file, "utf8")) as Report;
    expect(doc.outcome).toBe("done");
    expect(doc.results.map((x) => [x.outcome, x.pipeline?.status])).toEqual([
      ["passed", "completed"],
      ["passed", "completed"],
    ]);
    expect(r.stderr).toMatch(/Second \d: passed \(pipeline, health\)/);
    for (const s of sites) expect((await bed.emu.so.sites.get(s.id)).wp_version).toBe("6.8");
  });

  it("a pipeline in an unknown state with no change to it or the site is reported as such, well before the timeout", async () => {
    await bed.emu.control("POST", "pipeline-states", { names: SECOND_SERVER });
    const [site] = await fleet(1);
    await bed.emu.control("POST", "pipeline-outcomes", { rules: [{ site_id: site!.id, outcome: "hang" }] });
    const file = path.join(bed.box.dir, "stuck.json");
    const r = await runCli(
      [
        "upgrade",
        "rollout",
        "--site",
        site!.id,
        "--to-wp",
        "6.8",
        "--waves",
        "100%",
        "--gate",
        "pipeline",
        "--timeout",
        "1h",
        "--unknown-state-wait",
        "2s",
        "--report",
        file,
      ],
      { env: bed.env },
    );
    expect(r.code, r.stderr).toBe(5);
    const doc = JSON.parse(readFileSync(file, "utf8")) as Report;
    expect(doc.results[0]).toMatchObject({ outcome: "failed", pipeline: { status: "upgrading" }, error: { code: "PIPELINE_STATE_UNKNOWN" } });
    expect(doc.results[0]!.error!.message).toMatch(
      /^pipeline upg_\w+ has been "upgrading", a state siteops does not know, for 2 s, and the site is still at WordPress 6\.5/,
    );
  });
});
