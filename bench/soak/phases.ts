// The soak's four workloads, each run under the fault profile and then checked against the service's state
// with the faults off: what the caller was told against what happened.
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { createWriteStream, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { SiteOps, type Site } from "../../src/index.js";
import { mapPool } from "../../src/fleet.js";
import { inputEnv, parseOutputs } from "../../test/action/run-action.js";
import { buildProvider, providerHcl, Workspace } from "../lib/provider-helpers.js";
import { TOKEN, type SoakEmulator } from "./emulator.js";

export interface PhaseResult {
  phase: string;
  operations: number;
  succeeded: number;
  failed: number;
  duplicates: number;
  /** Reported done, but not so in the service's state (or reported failed although it happened). */
  lost: number;
  wallMs: number;
  notes: string[];
}

const ACTION = path.resolve(import.meta.dirname, "../../action/dist/index.js");
const client = (emu: SoakEmulator) => new SiteOps({ baseUrl: emu.url, apiToken: TOKEN });
const observer = (emu: SoakEmulator) => new SiteOps({ baseUrl: emu.url, apiToken: TOKEN, maxRetries: 0 });

async function sitesByName(emu: SoakEmulator, prefix: string): Promise<Map<string, Site[]>> {
  const by = new Map<string, Site[]>();
  for await (const s of observer(emu).sites.list({ per_page: 100 })) {
    if (!s.name.startsWith(prefix)) continue;
    by.set(s.name, [...(by.get(s.name) ?? []), s]);
  }
  return by;
}

const errorText = (err: unknown) => (err instanceof Error ? `${err.constructor.name}: ${err.message}` : String(err));

/** 1. Site creates, updates and deletes through the core with its default retry policy, 8 at a time. */
export async function coreCrud(emu: SoakEmulator, n: number): Promise<PhaseResult> {
  const so = client(emu);
  const r: PhaseResult = {
    phase: `core: ${n} site creates, updates, deletes`,
    operations: 3 * n,
    succeeded: 0,
    failed: 0,
    duplicates: 0,
    lost: 0,
    wallMs: 0,
    notes: [],
  };
  const started = performance.now();
  await emu.faultsOn();
  const made = await mapPool([...Array(n).keys()], 8, async (i) => {
    try {
      const site = await so.sites.create({ name: `soak ${i}`, url: `https://soak-${i}.soak.test` });
      r.succeeded++;
      return site;
    } catch (err) {
      r.failed++;
      r.notes.push(`create soak ${i}: ${errorText(err)}`);
      return undefined;
    }
  });
  const updated = new Set<string>();
  await mapPool(made, 8, async (site) => {
    if (!site) return;
    try {
      await so.sites.update(site.id, { name: `${site.name} v2` });
      updated.add(site.id);
      r.succeeded++;
    } catch (err) {
      r.failed++;
      r.notes.push(`update ${site.id}: ${errorText(err)}`);
    }
  });
  await emu.faultsOff();
  // The state after creates and updates: one site per name, each updated one renamed.
  const state = await sitesByName(emu, "soak ");
  for (const [, sites] of state) if (sites.length > 1) r.duplicates += sites.length - 1;
  for (const site of made) {
    if (!site) continue;
    const name = updated.has(site.id) ? `${site.name} v2` : site.name;
    if (!state.get(name)?.some((s) => s.id === site.id)) r.lost++;
  }
  await emu.faultsOn();
  const deleted = new Set<string>();
  await mapPool(made, 8, async (site) => {
    if (!site) return;
    try {
      await so.sites.delete(site.id);
      deleted.add(site.id);
      r.succeeded++;
    } catch (err) {
      r.failed++;
      r.notes.push(`delete ${site.id}: ${errorText(err)}`);
    }
  });
  await emu.faultsOff();
  const after = await sitesByName(emu, "soak ");
  for (const [, sites] of after) for (const s of sites) if (deleted.has(s.id)) r.lost++;
  r.wallMs = performance.now() - started;
  await so.close();
  return r;
}

/** 2. `command: snapshot, site: all` of the bundled action (as the runner starts it) over `n` sites. */
export async function actionSnapshotAll(emu: SoakEmulator, n: number, dir: string): Promise<PhaseResult> {
  const so = observer(emu);
  const sites = await mapPool([...Array(n).keys()], 8, (i) => so.sites.create({ name: `fleet ${i}`, url: `https://fleet-${i}.soak.test` }));
  const r: PhaseResult = { phase: `action: snapshot of all ${n} sites`, operations: n, succeeded: 0, failed: 0, duplicates: 0, lost: 0, wallMs: 0, notes: [] };
  const output = path.join(dir, "github-output");
  writeFileSync(output, "");
  await emu.faultsOn();
  const started = performance.now();
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [ACTION], {
      env: {
        PATH: process.env.PATH ?? "",
        GITHUB_OUTPUT: output,
        GITHUB_STEP_SUMMARY: path.join(dir, "summary.md"),
        ...inputEnv({ command: "snapshot", "api-token": TOKEN, "base-url": emu.url, site: "all", concurrency: "8" }),
      },
      stdio: ["ignore", "ignore", "ignore"],
    });
    child.once("error", reject);
    child.once("exit", resolve);
  });
  r.wallMs = performance.now() - started;
  await emu.faultsOff();
  const outputs = parseOutputs(readFileSync(output, "utf8"));
  const reported = JSON.parse(outputs["snapshot-ids"] ?? "{}") as Record<string, string>;
  if (code !== 0) r.notes.push(`action exited ${code}, status ${outputs.status}`);
  for (const site of sites) {
    const snaps = await so.snapshots.list(site.id, { per_page: 100 }).toArray();
    const completed = snaps.filter((s) => s.status === "completed");
    if (snaps.length > 1) r.duplicates += snaps.length - 1;
    const id = reported[site.id];
    if (id && completed.some((s) => s.id === id)) r.succeeded++;
    else if (id) r.lost++;
    else r.failed++;
  }
  await mapPool(sites, 8, (s) => so.sites.delete(s.id));
  return r;
}

/** 3. `terraform apply` of `n` siteops_site, an in-place update of each, and `terraform destroy`. */
export async function terraformLifecycle(emu: SoakEmulator, n: number, dir: string): Promise<PhaseResult> {
  const r: PhaseResult = {
    phase: `terraform: ${n} sites applied, updated, destroyed`,
    operations: 3 * n,
    succeeded: 0,
    failed: 0,
    duplicates: 0,
    lost: 0,
    wallMs: 0,
    notes: [],
  };
  const ws = new Workspace(await buildProvider(path.join(dir, "provider")));
  const hcl = (suffix: string) =>
    `${providerHcl(emu.url, TOKEN)}\nresource "siteops_site" "s" {\n  count = ${n}\n  name  = "tf \${count.index}${suffix}"\n  url   = "https://tf-\${count.index}.soak.test"\n  deletion_protection = false\n}\n`;
  const cwd = ws.dir("tf", { "main.tf": hcl("") });
  const started = performance.now();
  try {
    await ws.terraform(cwd, ["init", "-input=false", "-no-color"]);
    const step = async (what: string, check: (state: Map<string, Site[]>) => void, args: string[]) => {
      await emu.faultsOn();
      try {
        await ws.terraform(cwd, args);
      } catch (err) {
        r.notes.push(`${what}: ${String(err).split("\n").slice(0, 6).join(" ")}`);
      } finally {
        await emu.faultsOff();
      }
      check(await sitesByName(emu, "tf "));
    };
    const expectNames = (names: string[]) => (state: Map<string, Site[]>) => {
      for (const name of names) {
        const found = state.get(name)?.length ?? 0;
        if (found === 1) r.succeeded++;
        else if (found > 1) (r.duplicates += found - 1), r.succeeded++;
        else r.failed++;
      }
    };
    await step("apply", expectNames([...Array(n).keys()].map((i) => `tf ${i}`)), ["apply", "-auto-approve", "-input=false", "-no-color"]);
    writeFileSync(path.join(cwd, "main.tf"), hcl(" v2"));
    await step("update", expectNames([...Array(n).keys()].map((i) => `tf ${i} v2`)), ["apply", "-auto-approve", "-input=false", "-no-color"]);
    // A plan now (faults on) must find nothing to do: Terraform's state agrees with the service.
    await emu.faultsOn();
    const plan = await ws
      .measure(cwd, ["plan", "-detailed-exitcode", "-input=false", "-no-color"])
      .catch((err: unknown) => ({ exitCode: String(err).slice(0, 300) }));
    await emu.faultsOff();
    if (plan.exitCode !== 0) r.notes.push(`the plan after the update found changes or failed: ${plan.exitCode}`), (r.lost += 1);
    await step(
      "destroy",
      (state) => {
        const left = [...state.values()].reduce((t, s) => t + s.length, 0);
        r.succeeded += n - left;
        r.failed += left;
      },
      ["destroy", "-auto-approve", "-input=false", "-no-color"],
    );
  } finally {
    r.wallMs = performance.now() - started;
    ws.close();
  }
  return r;
}

/** 4. A resumable upload of `mib` MiB during which the emulator is killed with SIGKILL and started again. */
export async function uploadThroughCrash(emu: SoakEmulator, mib: number, dir: string): Promise<PhaseResult> {
  const r: PhaseResult = {
    phase: `upload: ${mib} MiB resumable, emulator killed (-9) and restarted`,
    operations: 1,
    succeeded: 0,
    failed: 0,
    duplicates: 0,
    lost: 0,
    wallMs: 0,
    notes: [],
  };
  const file = path.join(dir, "dump.bin");
  const hash = createHash("sha256");
  await new Promise<void>((resolve, reject) => {
    const out = createWriteStream(file);
    out.once("error", reject);
    let left = mib;
    const write = (): void => {
      while (left > 0) {
        const chunk = randomBytes(1024 * 1024);
        hash.update(chunk);
        left--;
        if (!out.write(chunk)) return void out.once("drain", write);
      }
      out.end(resolve);
    };
    write();
  });
  const digest = hash.digest("hex");
  const so = client(emu);
  const site = await observer(emu).sites.create({ name: "upload target", url: "https://upload.soak.test" });
  await emu.faultsOn();
  const started = performance.now();
  let killed = false;
  let restarted: Promise<void> | undefined;
  try {
    const snapshot = await so.operations.createSnapshot(site.id, {
      upload: file,
      uploadOptions: { resumableThreshold: 16 * 1024 * 1024, chunkSize: 8 * 1024 * 1024 },
      onProgress: (e) => {
        if (killed || e.type !== "upload.progress" || e.sent < e.total / 3) return;
        killed = true;
        emu.kill();
        restarted = (async () => {
          await new Promise((res) => setTimeout(res, 500));
          await emu.start();
          await emu.faultsOn();
        })();
      },
    });
    await restarted;
    if (!killed) r.notes.push("the upload finished before the kill: raise SOAK_UPLOAD_MB");
    if (snapshot.status === "completed" && snapshot.checksum_sha256 === digest) r.succeeded++;
    else (r.lost += 1), r.notes.push(`snapshot ${snapshot.id}: ${snapshot.status}, checksum ${snapshot.checksum_sha256} vs ${digest}`);
  } catch (err) {
    await restarted;
    r.failed++;
    r.notes.push(`upload: ${errorText(err)}`);
  }
  r.wallMs = performance.now() - started;
  await emu.faultsOff();
  const snaps = await observer(emu).snapshots.list(site.id).toArray();
  if (snaps.length > 1) r.duplicates += snaps.length - 1;
  const parts = readdirSync(path.join(emu.dir, "data"), { recursive: true }).filter((f) => String(f).endsWith(".part"));
  if (parts.length) r.notes.push(`left behind: ${parts.join(", ")}`);
  await so.close();
  return r;
}
