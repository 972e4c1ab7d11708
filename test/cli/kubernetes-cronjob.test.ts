// examples/cron/kubernetes-cronjob.yaml (issue 39 item 1): the CronJob parsed and checked, then its pod run as
// Kubernetes would run it (kubernetes-pod.ts: the image's entrypoint, the declared user and env, a read-only root
// with only the declared volumes writable) against an emulator: the nightly script snapshots and prunes every
// site, prints nothing, and keeps the job's state in its volume.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { fleetEmulator } from "../action/fleet-emulator.js";
import { PodHost, readCronJob } from "./kubernetes-pod.js";

const TOKEN = "sot_kubernetesCronJobToken0001";

let emu: RunningEmulator;
let host: PodHost;

beforeAll(async () => {
  ({ emu } = await fleetEmulator(TOKEN, 5));
  host = new PodHost();
});
afterAll(async () => {
  await emu?.close();
  host?.cleanup();
});

it("runs the image with the credentials from a Secret, never overlapping, under its declared constraints", async () => {
  const manifest = readCronJob("kubernetes-cronjob.yaml");
  expect(manifest.kind).toBe("CronJob");
  expect(manifest.spec).toMatchObject({ schedule: "15 2 * * *", concurrencyPolicy: "Forbid" });
  const pod = manifest.spec.jobTemplate.spec.template.spec;
  expect(pod.restartPolicy).toBe("Never");
  const vars = pod.containers[0]!.env;
  expect(vars.find((v) => v.name === "SITEOPS_API_TOKEN")!.valueFrom).toEqual({ secretKeyRef: { name: "siteops", key: "api-token" } });
  expect(vars.find((v) => v.name === "SITEOPS_BASE_URL")!.valueFrom).toEqual({ secretKeyRef: { name: "siteops", key: "base-url" } });

  const run = await host.run(pod, { "base-url": emu.url, "api-token": TOKEN });
  expect({ code: run.code, output: run.output }, run.output).toEqual({ code: 0, output: "" });
  const reports = run.volumes.get("reports")!;
  const report = (name: string) => JSON.parse(readFileSync(path.join(reports, name), "utf8")) as Record<string, unknown>;
  expect(report("snapshots.json")).toMatchObject({ exit_code: 0, summary: { total: 5, completed: 5 } });
  expect(report("prune.json")).toMatchObject({ exit_code: 0, dry_run: false });
  // The job's state, for a rerun of tonight's job, in the volume (XDG_STATE_HOME).
  expect(existsSync(path.join(reports, "state", "siteops"))).toBe(true);
});
