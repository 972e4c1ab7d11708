// examples/cron/kubernetes-indexed-job.yaml (issue 28 item 4, issue 39 item 1): the CronJob's Indexed Job parsed
// and checked, then each pod run as Kubernetes would run it (kubernetes-pod.ts: the image, the declared user,
// the declared env with JOB_COMPLETION_INDEX per index, a read-only root with only the declared volumes
// writable) against an emulator of 40 sites: every shard succeeds and the shards' reports cover every site once.
import { afterAll, beforeAll, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { RunningEmulator } from "../../emulator/index.js";
import { type Site } from "../../src/index.js";
import { inShard } from "../../src/fleet.js";
import { fleetEmulator } from "../action/fleet-emulator.js";
import { PodHost, readCronJob } from "./kubernetes-pod.js";

const TOKEN = "sot_kubernetesIndexedJobToken01";
const SITES = 40;

let emu: RunningEmulator;
let fleet: Site[];
let host: PodHost;

beforeAll(async () => {
  ({ emu, fleet } = await fleetEmulator(TOKEN, SITES));
  host = new PodHost();
});
afterAll(async () => {
  await emu?.close();
  host?.cleanup();
});

it("runs one pod per shard under its declared constraints: the shards cover every site exactly once", async () => {
  const manifest = readCronJob("kubernetes-indexed-job.yaml");
  expect(manifest.kind).toBe("CronJob");
  expect(manifest.spec).toMatchObject({ schedule: "15 2 * * *", concurrencyPolicy: "Forbid" });
  const job = manifest.spec.jobTemplate.spec;
  expect(job).toMatchObject({ completionMode: "Indexed", backoffLimitPerIndex: 0 });
  expect(job.parallelism).toBe(job.completions);
  const pod = job.template.spec;
  expect(pod.restartPolicy).toBe("Never");
  const [container] = pod.containers;
  const vars = new Map(container!.env.map((v) => [v.name, v]));
  expect(vars.get("SITEOPS_API_TOKEN")!.valueFrom).toEqual({ secretKeyRef: { name: "siteops", key: "api-token" } });
  expect(vars.get("SITEOPS_BASE_URL")!.valueFrom).toEqual({ secretKeyRef: { name: "siteops", key: "base-url" } });
  const shards = Number(vars.get("SITEOPS_SHARDS")!.value);
  expect(shards).toBe(job.completions);
  const command = [...container!.command!, ...container!.args!];
  expect(command.slice(0, 2)).toEqual(["/bin/sh", "-c"]);
  expect(command[2]).toMatch(/siteops snapshot create --all\s+--shard "\$\(\(JOB_COMPLETION_INDEX \+ 1\)\)\/\$SITEOPS_SHARDS"/);

  const secret = { "base-url": emu.url, "api-token": TOKEN };
  // JOB_COMPLETION_INDEX: set by Kubernetes in every pod of an Indexed Job.
  const runs = await Promise.all(Array.from({ length: shards }, (_, index) => host.run(pod, secret, { JOB_COMPLETION_INDEX: String(index) })));
  for (const r of runs) expect({ code: r.code, output: r.output }, r.output).toEqual({ code: 0, output: "" });

  const seen = new Map<string, number>();
  runs.forEach((run, index) => {
    const shard = index + 1;
    const report = JSON.parse(readFileSync(path.join(run.volumes.get("reports")!, `snapshots-shard-${shard}.json`), "utf8")) as {
      exit_code: number;
      results: { site: { id: string }; outcome: string }[];
    };
    expect(report.exit_code).toBe(0);
    for (const { site, outcome } of report.results) {
      expect(outcome).toBe("completed");
      expect(inShard(site.id, { index: shard, count: shards })).toBe(true);
      seen.set(site.id, (seen.get(site.id) ?? 0) + 1);
    }
  });
  expect([...seen.keys()].sort()).toEqual(fleet.map((s) => s.id).sort());
  expect([...seen.values()].every((n) => n === 1)).toBe(true);
});
