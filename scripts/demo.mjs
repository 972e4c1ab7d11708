#!/usr/bin/env node
// `npm run demo`: the toolkit end to end in one command, on a fresh clone after `npm ci`.
//   1. the emulator on its embedded default (SQLite in a temp dir) with demo data;
//   2. the CDKTF example (examples/cdktf) synthesized and applied with real terraform and the locally built
//      provider; one site changed in the typed list and applied again (an in-place update);
//   3. a snapshot with uploaded data, an upgrade pipeline opened and approved, through the core's operations;
//   4. a summary (what was created, states, ids, webhook deliveries verified, the activity log tail);
//   5. deletion protection turned off, terraform destroy and cleanup. Any failure: one line on stderr and exit 1.
// `npm run demo -- --keep` (on a terminal) skips step 5 and keeps the emulator running for curl until Ctrl-C.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { clock, kib } from "./demo/format.mjs";
import { summary } from "./demo/summary.mjs";
import { startReceiver } from "./demo/receiver.mjs";
import { DemoError, Terraform, installProvider, terraformVersion } from "./demo/terraform.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const STACK = "siteops";
/** Emulator seconds per pipeline/snapshot step: fast enough for a one-minute demo, slow enough to watch. */
const STEP_SECONDS = 1;

const USAGE = "usage: npm run demo [-- --keep]   (--keep: on a terminal, keep the emulator running for curl until Ctrl-C)";
let flags;
try {
  ({ values: flags } = parseArgs({ options: { keep: { type: "boolean", default: false }, help: { type: "boolean", short: "h", default: false } } }));
} catch (err) {
  console.error(`demo: ${err.message}\n${USAGE}`);
  process.exit(2);
}
if (flags.help) {
  console.log(USAGE);
  process.exit(0);
}
const keep = flags.keep && process.stdout.isTTY === true;
const t = clock(Date.now());
const say = (line) => console.log(`${t()} ${line}`);
const cleanups = [];

async function loadModules() {
  let tsImport;
  try {
    ({ tsImport } = await import("tsx/esm/api"));
  } catch {
    throw new DemoError("the dev dependencies are missing: run `npm ci` first.");
  }
  const ts = (file, tsconfig = path.join(root, "tsconfig.json")) =>
    tsImport(pathToFileURL(path.join(root, file)).href, { parentURL: import.meta.url, tsconfig });
  const exampleTsconfig = path.join(root, "tsconfig.examples.json"); // resolves "siteops/cdktf" to the sources
  const [emulator, core, stack, lists, cdktf] = await Promise.all([
    ts("emulator/index.ts"),
    ts("src/index.ts"),
    ts("examples/cdktf/stack.ts", exampleTsconfig),
    ts("examples/cdktf/sites.ts", exampleTsconfig),
    import("cdktf"),
  ]);
  return { emulator, core, stack, lists, cdktf };
}

/** Runs `fn` without printing Node's DEP0044 (util.isArray), which archived cdktf 0.21's TerraformOutput
 * triggers on Node 22+ (docs/cdk.md says so); every other warning still prints. */
function withoutCdktfDeprecation(fn) {
  const emit = process.emitWarning;
  process.emitWarning = function (warning, ...rest) {
    const code = typeof rest[0] === "object" ? rest[0]?.code : rest[1];
    if (code === "DEP0044") return;
    return emit.call(process, warning, ...rest);
  };
  try {
    return fn();
  } finally {
    process.emitWarning = emit;
  }
}

/** Synthesizes the example stack (through the generated classes) with these lists, state kept in `dir`. */
function synth(m, dir, sites, webhooks) {
  const app = new m.cdktf.App({ outdir: path.join(dir, "cdktf.out") });
  const stack = new m.stack.SiteopsStack(app, STACK, { sites, webhooks });
  new m.cdktf.LocalBackend(stack, { path: path.join(dir, `terraform.${STACK}.tfstate`) });
  withoutCdktfDeprecation(() => app.synth());
  return path.join(dir, "cdktf.out", "stacks", STACK);
}

/** "Apply complete! Resources: 5 added, 0 changed, 0 destroyed." -> "5 added, 0 changed, 0 destroyed" */
const applied = (out) => /Resources: ([^.]+)\./.exec(out)?.[1] ?? "done";

async function main() {
  console.log("siteops demo: the toolkit end to end against a local emulator\n");
  const tfVersion = await terraformVersion();
  const dir = mkdtempSync(path.join(tmpdir(), "siteops-demo-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));

  const [provider, m] = await Promise.all([installProvider(root, dir), loadModules()]);
  say(`terraform ${tfVersion}; siteops provider ${provider.version} bundled into a filesystem mirror (${dir})`);

  const port = process.env.SITEOPS_DEMO_PORT ?? (keep ? "4747" : "0");
  const emu = await m.emulator
    .startEmulator({
      port: Number(port),
      db: path.join(dir, "siteops.db"),
      dataDir: path.join(dir, "data"),
      demo: true,
      stepSeconds: STEP_SECONDS,
      allowPrivateWebhookTargets: true, // the webhooks go to the demo's receiver on 127.0.0.1
    })
    .catch((err) => {
      if (err?.code === "EADDRINUSE") throw new DemoError(`port ${port} is in use: set SITEOPS_DEMO_PORT to another port, or to 0 for a free one.`);
      throw err;
    });
  cleanups.push(() => emu.close());
  const client = new m.core.SiteOps({ baseUrl: emu.url, apiToken: emu.demo.api_token });
  const seeded = (await client.sites.list({ per_page: 100 })).data;
  say(`emulator at ${emu.url}: SQLite in the temp dir, demo account ${emu.demo.account_id} with ${seeded.length} sites`);

  const receiver = await startReceiver();
  cleanups.push(() => receiver.close());
  const webhooks = m.lists.webhooks.map((w) => ({ ...w, url: receiver.url }));
  const sites = m.lists.sites;

  // --- Terraform through the CDKTF bindings ---
  const work = synth(m, dir, sites, webhooks);
  say(`CDKTF app synthesized: ${sites.length} sites, ${webhooks.length} webhook endpoints -> ${path.relative(dir, work)}/cdk.tf.json`);
  const tfEnv = {
    ...process.env,
    TF_CLI_CONFIG_FILE: provider.cliConfig,
    CHECKPOINT_DISABLE: "1",
    TF_IN_AUTOMATION: "1",
    SITEOPS_BASE_URL: emu.url,
    SITEOPS_API_TOKEN: emu.demo.api_token,
  };
  const tf = new Terraform(work, tfEnv);
  await tf.run("init", "-input=false");
  say(`terraform apply: ${applied(await tf.run("apply", "-auto-approve", "-input=false"))}`);

  const target = sites.find((s) => s.key === "shop") ?? sites[0];
  const changedPhp = target.phpVersion === "8.2" ? "8.3" : "8.2";
  const changed = sites.map((s) => (s === target ? { ...s, phpVersion: changedPhp } : s));
  synth(m, dir, changed, webhooks);
  say(`changed "${target.key}" in the typed list (phpVersion ${target.phpVersion ?? "default"} -> ${changedPhp}) and synthesized again`);
  const update = await tf.run("apply", "-auto-approve", "-input=false");
  say(`terraform apply: ${applied(update)}`);
  // The plan lines of the change itself (not the computed attributes that become unknown with it).
  for (const line of update.split("\n")) {
    if (/will be updated in-place|\s~ .*->/.test(line) && !line.includes("(known after apply)")) console.log(`         ${line.trim()}`);
  }

  const outputs = JSON.parse(await tf.run("output", "-json"));
  const siteIds = outputs.site_ids.value;
  const endpointIds = outputs.webhook_endpoint_ids.value;
  const secrets = Object.values(outputs.webhook_secrets.value);

  // --- The core's operations ---
  const siteId = siteIds[target.key];
  const data = gzipSync(
    Buffer.from(JSON.stringify({ site: target.url, exported_at: new Date().toISOString(), tables: Array.from({ length: 2000 }, (_, i) => `wp_table_${i}`) })),
  );
  const snapshot = await client.operations.createSnapshot(siteId, {
    description: "siteops demo: export before the upgrade",
    upload: data,
    uploadOptions: { contentType: "application/gzip" },
    pollInterval: 250,
    waitTimeout: 60_000,
    onProgress: (e) => {
      if (e.type === "snapshot.created") say(`snapshot ${e.snapshot.id} of "${target.key}" created through the core's operations (${e.snapshot.status})`);
      else if (e.type === "snapshot.uploaded") say(`  ${kib(data.length)} uploaded (${e.snapshot.status})`);
      else if (e.type === "snapshot.status") say(`  ${e.snapshot.status}`);
    },
  });

  const newest = (await client.sites.get(siteIds.docs ?? siteId)).wp_version; // a site created without a pin runs the newest
  const before = await client.sites.get(siteId);
  const steps = (p) => (p.steps?.length ? ` (${p.steps.map((st) => `${st.name} ${st.status}`).join(", ")})` : "");
  const progress = (e) => {
    if (e.type === "pipeline.created") say(`upgrade pipeline ${e.pipeline.id} opened: WordPress ${before.wp_version} -> ${newest}`);
    else if (e.type === "pipeline.approved") say(`approved ${e.pipeline.id} through the core's operations`);
    else if (e.type === "pipeline.status") say(`  ${e.pipeline.status}${steps(e.pipeline)}`);
  };
  const wait = { onProgress: progress, pollInterval: 250, waitTimeout: 60_000 };
  const opened = await client.operations.openUpgrade(siteId, { to_wp_version: newest, requires_approval: true, snapshot_id: snapshot.id }, wait);
  const pipeline = await client.operations.approveUpgrade(siteId, opened.id, { ...wait, comment: "approved by the siteops demo" });

  await summary({ client, siteIds, endpointIds, snapshot, pipeline, receiver, secrets, verify: m.core.verifyWebhook });

  if (keep) {
    keepRunning({ emu, work, cliConfig: provider.cliConfig });
    return;
  }
  if (flags.keep) console.log("\n(--keep needs a terminal: stdout is not a TTY, so the demo cleans up.)");
  // The sites are protected from deletion (deletion_protection, default true): turned off first, an in-place
  // change that makes no API request. -refresh=false: the demo upgraded "shop" past its configured wp_version,
  // and a refreshed plan of that configuration is a downgrade, which the provider refuses at plan time
  // (docs/terraform.md), destroy included.
  synth(
    m,
    dir,
    changed.map((s) => ({ ...s, deletionProtection: false })),
    webhooks,
  );
  say(`terraform apply (deletion_protection = false): ${applied(await tf.run("apply", "-auto-approve", "-input=false", "-refresh=false"))}`);
  say(`terraform destroy: ${applied(await tf.run("destroy", "-auto-approve", "-input=false", "-refresh=false"))}`);
  await runCleanups();
  say("emulator stopped, temp dir removed. Done.");
  if (!flags.keep) console.log("\nRun `npm run demo -- --keep` to keep the emulator and these resources running for curl.");
}

function keepRunning({ emu, work, cliConfig }) {
  const { url, demo } = emu;
  const auth = `-H "Authorization: token ${demo.api_token}"`;
  console.log(`The emulator keeps running at ${url} with everything above (demo credentials, valid until Ctrl-C):

  account   ${demo.account_id}
  login     ${demo.email} / ${demo.password}
  API token ${demo.api_token}
  console   ${url}/  (sign in with the login above; Settings -> API creates tokens)

Try:
  curl -s ${auth} ${url}/api/v1/sites
  curl -s ${auth} ${url}/api/v1/activity_logs
  curl -s -X POST -H "Content-Type: application/json" \\
       -d '{"email":"${demo.email}","password":"${demo.password}"}' ${url}/api/v1/jwt
  curl -s ${url}/openapi.json

The Terraform working directory is ${work}:
  export TF_CLI_CONFIG_FILE=${cliConfig} SITEOPS_BASE_URL=${url} SITEOPS_API_TOKEN=${demo.api_token}
  (cd ${work} && terraform plan)

Press Ctrl-C to stop (the emulator's database and the temp dir are removed).`);
}

async function runCleanups() {
  while (cleanups.length) {
    try {
      await cleanups.pop()();
    } catch {
      // best effort: the temp dir goes last and is removed regardless
    }
  }
}

let stopping = false;
for (const sig of ["SIGINT", "SIGTERM"]) {
  process.on(sig, async () => {
    if (stopping) return;
    stopping = true;
    await runCleanups();
    process.exit(keep ? 0 : 130);
  });
}

try {
  await main();
} catch (err) {
  if (stopping) await new Promise(() => {}); // Ctrl-C: the signal handler cleans up and exits
  await runCleanups();
  const message = err instanceof DemoError ? err.message : err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  console.error(`\ndemo failed: ${message}`);
  process.exit(1);
}
