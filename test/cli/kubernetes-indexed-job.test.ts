// examples/cron/kubernetes-indexed-job.yaml (issue 28 item 4): the CronJob's Indexed Job parsed and checked, then
// each pod's command line run as its container would (`/bin/sh -c` with JOB_COMPLETION_INDEX set per index, the
// env the manifest gives, the Secret's keys pointing at the emulator, its volume mounts as temp dirs, `siteops`
// on the PATH) against an emulator of 40 sites: the shards' reports cover every site exactly once.
import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { parse } from "yaml";
import type { RunningEmulator } from "../../emulator/index.js";
import { type Site } from "../../src/index.js";
import { inShard } from "../../src/fleet.js";
import { fleetEmulator } from "../action/fleet-emulator.js";
import { BIN, ROOT, sandbox, type Sandbox } from "./helpers.js";

const TOKEN = "sot_kubernetesIndexedJobToken01";
const SITES = 40;

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef: { name: string; key: string } };
}
interface Manifest {
  kind: string;
  spec: {
    schedule: string;
    concurrencyPolicy: string;
    jobTemplate: {
      spec: {
        completionMode: string;
        completions: number;
        parallelism: number;
        backoffLimitPerIndex?: number;
        template: {
          spec: {
            restartPolicy: string;
            containers: { command: string[]; args: string[]; env: EnvVar[]; volumeMounts: { name: string; mountPath: string }[] }[];
          };
        };
      };
    };
  };
}

let emu: RunningEmulator;
let fleet: Site[];
let box: Sandbox;

beforeAll(async () => {
  ({ emu, fleet } = await fleetEmulator(TOKEN, SITES));
  box = sandbox();
  const bin = path.join(box.dir, "bin");
  mkdirSync(bin);
  // What the image's `npm install --global` puts on the PATH.
  writeFileSync(path.join(bin, "siteops"), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(path.join(bin, "siteops"), 0o755);
});
afterAll(async () => {
  await emu?.close();
  box?.cleanup();
});

function pod(command: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command[0]!, command.slice(1), { env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.on("close", (code) => resolve({ code, output }));
  });
}

it("runs one pod per shard: the shards cover every site exactly once", async () => {
  const manifest = parse(readFileSync(path.join(ROOT, "examples/cron/kubernetes-indexed-job.yaml"), "utf8")) as Manifest;
  expect(manifest.kind).toBe("CronJob");
  expect(manifest.spec).toMatchObject({ schedule: "15 2 * * *", concurrencyPolicy: "Forbid" });
  const job = manifest.spec.jobTemplate.spec;
  expect(job).toMatchObject({ completionMode: "Indexed", backoffLimitPerIndex: 0 });
  expect(job.parallelism).toBe(job.completions);
  expect(job.template.spec.restartPolicy).toBe("Never");
  const [container] = job.template.spec.containers;
  const vars = new Map(container!.env.map((v) => [v.name, v]));
  expect(vars.get("SITEOPS_API_TOKEN")!.valueFrom).toEqual({ secretKeyRef: { name: "siteops", key: "api-token" } });
  expect(vars.get("SITEOPS_BASE_URL")!.valueFrom).toEqual({ secretKeyRef: { name: "siteops", key: "base-url" } });
  const shards = Number(vars.get("SITEOPS_SHARDS")!.value);
  expect(shards).toBe(job.completions);
  const command = [...container!.command, ...container!.args];
  expect(command.slice(0, 2)).toEqual(["/bin/sh", "-c"]);
  expect(command[2]).toMatch(/siteops snapshot create --all\s+--shard "\$\(\(JOB_COMPLETION_INDEX \+ 1\)\)\/\$SITEOPS_SHARDS"/);

  // The Secret's keys, and each volume mount as a directory of its own per pod.
  const secret: Record<string, string> = { "base-url": emu.url, "api-token": TOKEN };
  const reports = path.join(box.dir, "reports");
  mkdirSync(reports);
  const runs = await Promise.all(
    Array.from({ length: job.completions }, (_, index) => {
      const mounts = new Map(container!.volumeMounts.map((m) => [m.mountPath, m.name === "reports" ? reports : path.join(box.dir, `pod-${index}-${m.name}`)]));
      for (const [mountPath, dir] of mounts) if (mountPath !== "/reports") mkdirSync(dir, { mode: 0o700 });
      const env: NodeJS.ProcessEnv = { PATH: `${path.join(box.dir, "bin")}:${process.env.PATH}`, HOME: box.dir, SITEOPS_POLL_INTERVAL_MS: "20" };
      for (const v of container!.env) {
        const value = v.valueFrom ? secret[v.valueFrom.secretKeyRef.key]! : v.value!;
        env[v.name] = mounts.get(value) ?? value;
      }
      env.JOB_COMPLETION_INDEX = String(index); // set by Kubernetes in every pod of an Indexed Job
      return pod(command, env);
    }),
  );
  for (const r of runs) expect(r, r.output).toEqual({ code: 0, output: "" });

  const seen = new Map<string, number>();
  for (let i = 1; i <= shards; i++) {
    const report = JSON.parse(readFileSync(path.join(reports, `snapshots-shard-${i}.json`), "utf8")) as {
      exit_code: number;
      results: { site: { id: string }; outcome: string }[];
    };
    expect(report.exit_code).toBe(0);
    for (const { site, outcome } of report.results) {
      expect(outcome).toBe("completed");
      expect(inShard(site.id, { index: i, count: shards })).toBe(true);
      seen.set(site.id, (seen.get(site.id) ?? 0) + 1);
    }
  }
  expect([...seen.keys()].sort()).toEqual(fleet.map((s) => s.id).sort());
  expect([...seen.values()].every((n) => n === 1)).toBe(true);
});
