// An apply stopped in the middle (issue 40 item 1): Ctrl-C while the service is slow to answer creates, Terraform
// killed with SIGKILL (the provider with it), and Ctrl-C while an update waits for an upgrade pipeline, each
// followed by a rerun that must converge to exactly the configured objects, nothing to import by hand. Then what a
// create's key adopts and what it must not (a site made by hand, a destroy and a create within the service's 24 h
// idempotency window, twins, a replacement made before the destroy), a create kept in state when its later step
// fails, and a 429 storm that must end within the retry budget (item 7).
import { rmSync, statSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PROFILES } from "../support/emulator.js";
import { start } from "../support/processes.js";
import { Terraform, api, faults, recordingProxy } from "./harness.js";

let tf: Terraform | undefined;
afterEach(async () => {
  await tf?.close();
  tf = undefined;
});

/** `sites` sites and one webhook endpoint (the reproduction: 6 and 1). */
const fleet = (prefix: string, sites = 6) => `
resource "siteops_site" "s" {
  count = ${sites}
  name  = "${prefix} \${count.index}"
  url   = "https://${prefix}-\${count.index}.example.com"

  deletion_protection = false
}

resource "siteops_webhook_endpoint" "hook" {
  url            = "https://hooks.example.com/${prefix}"
  enabled_events = ["site.created", "site.deleted"]
}
`;

/** The ids of every page of a listing, read until an empty page (the minimal profile sends pages of 5, no headers). */
async function listed(t: Terraform, path: string): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; page <= 100; page++) {
    const list = (await api(t, "GET", `${path}?per_page=100&page=${page}`)).json as { id: string }[];
    if (list.length === 0) break;
    ids.push(...list.map((x) => x.id));
  }
  return ids;
}

/** What the service holds, counted through the API. */
async function onService(t: Terraform): Promise<{ sites: number; endpoints: number }> {
  return { sites: (await listed(t, "/api/v1/sites")).length, endpoints: (await listed(t, "/api/v1/webhook_endpoints")).length };
}

/** The ids in Terraform's state file, by resource type. */
function inState(t: Terraform): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const r of t.rawState().resources) out[r.type] = [...(out[r.type] ?? []), ...r.instances.map((i) => i.attributes.id as string)];
  return out;
}

/**
 * Runs `terraform apply` in its own process group and, once the service holds `sites` sites and `endpoints`
 * endpoints (their creates committed, their answers still held back by the fault delay), sends `signal` to the
 * group: SIGINT as Ctrl-C in a terminal, SIGKILL as a killed job (Terraform and the provider with it).
 */
async function applyStoppedWhenCreated(t: Terraform, want: { sites: number; endpoints: number }, signal: NodeJS.Signals) {
  const run = start("terraform", ["apply", "-auto-approve", "-input=false", "-no-color"], { cwd: t.work, env: t.env(), detached: true });
  let sent = false;
  const poll = (async () => {
    while (!sent && run.child.exitCode === null) {
      const now = await onService(t);
      if (now.sites >= want.sites && now.endpoints >= want.endpoints) {
        sent = true;
        process.kill(-run.child.pid!, signal);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const done = await run.done;
  await poll;
  expect(sent, `terraform ended before the service held every object:\n${done.stdout}\n${done.stderr}`).toBe(true);
  return done;
}

/** Creates committed at once but answered only after `ms` (a slow service, a slow proxy). */
const slowCreates = (ms: number) => [
  { method: "POST", path: "/api/v1/sites", phase: "after", delay_ms: ms },
  { method: "POST", path: "/api/v1/webhook_endpoints", phase: "after", delay_ms: ms },
];

describe("an apply interrupted while creates are in flight", () => {
  it.each(PROFILES)("Ctrl-C (%s profile): the creates already sent are answered and recorded, so the next plan is empty", async (profile) => {
    tf = await Terraform.start({ profile });
    tf.write(tf.providerBlock() + fleet("ctrlc"));
    await tf.init();
    await faults(tf, slowCreates(3000));
    const r = await applyStoppedWhenCreated(tf, { sites: 6, endpoints: 1 }, "SIGINT");
    await faults(tf, []);
    expect(r.stdout + r.stderr).toContain("Interrupt received");
    expect(r.stderr).not.toContain("the operation was cancelled");
    // Nothing the service did was lost: every object is in the state, with the endpoint's secret.
    expect(inState(tf).siteops_site).toHaveLength(6);
    expect(inState(tf).siteops_webhook_endpoint).toHaveLength(1);
    expect((await tf.resource("siteops_webhook_endpoint.hook"))?.secret).toMatch(/^whsec_/);
    expect((await tf.plan()).code).toBe(0);
    expect(await onService(tf)).toEqual({ sites: 6, endpoints: 1 });
  });

  it.each(PROFILES)(
    "SIGKILL of Terraform and the provider (%s profile): the rerun adopts what the lost creates made, no duplicate, no import",
    async (profile) => {
      tf = await Terraform.start({ profile });
      tf.write(tf.providerBlock() + fleet("killed"));
      await tf.init();
      await faults(tf, slowCreates(3000));
      const r = await applyStoppedWhenCreated(tf, { sites: 6, endpoints: 1 }, "SIGKILL");
      await faults(tf, []);
      expect(r.signal).toBe("SIGKILL");
      // The client's first request goes alone (the rate limiter's probe), so one create may have been answered.
      const recorded = (inState(tf).siteops_site ?? []).length + (inState(tf).siteops_webhook_endpoint ?? []).length;
      expect(recorded).toBeLessThan(7);
      expect(await onService(tf)).toEqual({ sites: 6, endpoints: 1 });

      const again = await tf.apply();
      expect(again.stdout).toContain(`Apply complete! Resources: ${7 - recorded} added, 0 changed, 0 destroyed.`);
      expect(again.stdout + again.stderr).not.toContain("already been taken");
      expect(await onService(tf)).toEqual({ sites: 6, endpoints: 1 });
      const ids = inState(tf);
      expect(new Set(ids.siteops_site).size).toBe(6);
      expect([...ids.siteops_site!].sort()).toEqual((await listed(tf, "/api/v1/sites")).sort());
      // The secret exists only in the create answer: the service's replay of it is what the state holds.
      expect((await tf.resource("siteops_webhook_endpoint.hook"))?.secret).toMatch(/^whsec_/);
      expect((await tf.plan()).code).toBe(0);
    },
  );

  it("a destroy and a create of the same configuration within 24 h: new objects, not the deleted ones replayed", async () => {
    tf = await Terraform.start();
    tf.write(tf.providerBlock() + fleet("again", 2));
    await tf.init();
    await tf.apply();
    const first = inState(tf);
    await tf.ok(["destroy", "-auto-approve", "-no-color"]);
    expect(await onService(tf)).toEqual({ sites: 0, endpoints: 0 });
    const r = await tf.apply();
    expect(r.stdout).toContain("Apply complete! Resources: 3 added, 0 changed, 0 destroyed.");
    expect(await onService(tf)).toEqual({ sites: 2, endpoints: 1 });
    const second = inState(tf);
    expect(second.siteops_site!.filter((id) => first.siteops_site!.includes(id))).toEqual([]);
    expect(second.siteops_webhook_endpoint).not.toEqual(first.siteops_webhook_endpoint);
    expect((await tf.plan()).code).toBe(0);
  });

  it("each destroy and apply again within 24 h asks once per object: the keys the destroy spent are skipped, also without the record", async () => {
    tf = await Terraform.start();
    const proxy = await recordingProxy(tf.url);
    try {
      tf.write(tf.providerBlock().replace(JSON.stringify(tf.url), JSON.stringify(proxy.url)) + fleet("cycles", 2));
      await tf.init();
      const creates = () => proxy.requests.filter((r) => /^POST \/api\/v1\/(sites|webhook_endpoints)$/.test(r));
      const reads = () => proxy.requests.filter((r) => /^GET \/api\/v1\/(sites|webhook_endpoints)\/[^/?]+$/.test(r));
      const record = path.join(tf.work, ".terraform", "siteops-spent-keys");
      const seen = new Set<string>();
      for (let cycle = 0; cycle < 4; cycle++) {
        // The third cycle runs without the record (a fresh checkout's): it asks with the spent keys again, reads
        // the deleted objects, and still makes new ones.
        if (cycle === 2) rmSync(record);
        proxy.reset();
        const r = await tf.apply();
        expect(r.stdout).toContain("Apply complete! Resources: 3 added, 0 changed, 0 destroyed.");
        const ids = inState(tf);
        for (const id of [...ids.siteops_site!, ...ids.siteops_webhook_endpoint!]) {
          expect(seen.has(id), `${id} was made by an earlier cycle`).toBe(false);
          seen.add(id);
        }
        if (cycle === 2) expect(reads().length).toBe(3 * cycle);
        else {
          expect(creates()).toHaveLength(3);
          expect(reads()).toEqual([]);
        }
        await tf.ok(["destroy", "-auto-approve", "-no-color"]);
      }
      expect(await onService(tf)).toEqual({ sites: 0, endpoints: 0 });
      expect(statSync(record).mode & 0o777).toBe(0o600);
    } finally {
      await proxy.close();
    }
  });
});

describe("what a create's key adopts, and what it does not", () => {
  it("a URL taken by a site made by hand is refused; once that site is gone, the same configuration creates it", async () => {
    tf = await Terraform.start();
    tf.write(tf.providerBlock() + fleet("taken", 1));
    await tf.init();
    const mine = (await api(tf, "POST", "/api/v1/sites", { name: "By hand", url: "https://taken-0.example.com" })).json as { id: string };
    const refused = await tf.run(["apply", "-auto-approve", "-input=false", "-no-color"]);
    expect(refused.code).toBe(1);
    const said = refused.stderr.replace(/\s+/g, " ");
    expect(said).toContain("url has already been taken");
    expect(said).toContain(`Site ${mine.id} ("By hand") has this URL. If this resource should manage it, import it (terraform import <address> ${mine.id}`);
    // Never adopted: the site made by hand is still alone with its URL, and not in the state.
    expect(inState(tf).siteops_site ?? []).toEqual([]);
    await api(tf, "DELETE", `/api/v1/sites/${mine.id}`);
    // The service kept the refusal with the request's key: a replayed refusal is history, the next key asks again.
    const r = await tf.apply();
    expect(r.stdout).toContain("Apply complete! Resources: 1 added, 0 changed, 0 destroyed.");
    expect(await onService(tf)).toEqual({ sites: 1, endpoints: 1 });
    expect((await tf.plan()).code).toBe(0);
  });

  it("a replacement made before the destroy (create_before_destroy) with the same arguments keeps the endpoint, with a warning", async () => {
    tf = await Terraform.start();
    tf.write(
      tf.providerBlock() +
        `resource "siteops_webhook_endpoint" "rotated" {\n  url = "https://hooks.example.com/rotated"\n\n  lifecycle {\n    create_before_destroy = true\n  }\n}\n`,
    );
    await tf.init();
    await tf.apply();
    const [old] = inState(tf).siteops_webhook_endpoint!;
    // Terraform creates the replacement first, with the same arguments, so the same key as the endpoint's own
    // create: the service answers with that endpoint, and the provider is not told it is the one replaced.
    const r = await tf.apply("-replace=siteops_webhook_endpoint.rotated");
    expect(r.stdout.replace(/\s+/g, " ")).toContain(`Warning: The webhook endpoint ${old} was kept, not deleted`);
    // Never a state on a deleted endpoint: the one endpoint is the state's, and it exists.
    expect(inState(tf).siteops_webhook_endpoint).toEqual([old]);
    expect((await api(tf, "GET", `/api/v1/webhook_endpoints/${old}`)).status).toBe(200);
    expect(await onService(tf)).toEqual({ sites: 0, endpoints: 1 });
    expect((await tf.plan()).code).toBe(0);
  });

  it("another workspace of the same directory with the same arguments gets its own endpoint", async () => {
    tf = await Terraform.start();
    tf.write(tf.providerBlock() + `resource "siteops_webhook_endpoint" "hook" {\n  url = "https://hooks.example.com/workspaces"\n}\n`);
    await tf.init();
    await tf.apply();
    const [first] = inState(tf).siteops_webhook_endpoint!;
    await tf.ok(["workspace", "new", "staging", "-no-color"]);
    const r = await tf.apply();
    expect(r.stdout).toContain("Apply complete! Resources: 1 added, 0 changed, 0 destroyed.");
    const staging = (await tf.state()).values?.root_module?.resources?.[0]?.values.id;
    expect(staging).toMatch(/^we_/);
    expect(staging).not.toBe(first);
    expect(await onService(tf)).toEqual({ sites: 0, endpoints: 2 });
  });

  it("two webhook endpoints with the same arguments each get their own, also after a destroy", async () => {
    tf = await Terraform.start();
    const twins = `
resource "siteops_webhook_endpoint" "twin" {
  count = 2
  url   = "https://hooks.example.com/twins"
}
`;
    tf.write(tf.providerBlock() + twins);
    await tf.init();
    await tf.apply();
    const first = inState(tf).siteops_webhook_endpoint!;
    expect(new Set(first).size).toBe(2);
    await tf.ok(["destroy", "-auto-approve", "-no-color"]);
    await tf.apply();
    const second = inState(tf).siteops_webhook_endpoint!;
    expect(new Set(second).size).toBe(2);
    expect(second.filter((id) => first.includes(id))).toEqual([]);
    expect(await onService(tf)).toEqual({ sites: 0, endpoints: 2 });
    expect((await tf.plan()).code).toBe(0);
  });
});

describe("Ctrl-C while an apply waits for an upgrade pipeline", () => {
  it("stops waiting at once, records the rename sent before, and leaves the pipeline to the service", async () => {
    tf = await Terraform.start();
    const site = (name: string, wp: string, upgrade = "") =>
      tf!.providerBlock() +
      `resource "siteops_site" "blog" {\n  name        = "${name}"\n  url         = "https://blog.example.com"\n  wp_version  = "${wp}"\n  php_version = "8.2"\n${upgrade}}\n`;
    tf.write(site("Blog", "6.4"));
    await tf.init();
    await tf.apply();
    const id = (await tf.resource("siteops_site.blog"))!.id as string;
    tf.write(site("Blog renamed", "6.5", "  upgrade {\n    require_approval = true\n  }\n"));
    // The rename is a PATCH, sent first; then the pipeline is opened and followed until someone approves it.
    let stopped = false;
    const run = start("terraform", ["apply", "-auto-approve", "-input=false", "-no-color"], {
      cwd: tf.work,
      env: tf.env({ TF_LOG_PROVIDER: "INFO" }),
      detached: true,
      onOutput: (_out, err) => {
        if (err.includes("awaits approval") && !stopped) {
          stopped = true;
          process.kill(-run.child.pid!, "SIGINT");
        }
      },
    });
    const r = await run.done;
    expect(stopped).toBe(true);
    expect(r.code).toBe(1);
    expect(r.stderr.replace(/\s+/g, " ")).toContain(`Could not upgrade site ${id}: the operation was cancelled`);
    // The state has what the service did: the new name, and the versions the site still runs.
    expect(await tf.resource("siteops_site.blog")).toMatchObject({ name: "Blog renamed", wp_version: "6.4" });
    const [pipeline] = (await api(tf, "GET", `/api/v1/sites/${id}/upgrade_pipelines`)).json as { id: string; status: string }[];
    expect(pipeline!.status).toBe("awaiting_approval");
    // The pipeline goes on: approved outside Terraform, it ends, and the next plan finds the site as configured.
    expect((await api(tf, "POST", `/api/v1/sites/${id}/upgrade_pipelines/${pipeline!.id}/approve`, {})).status).toBe(200);
    const upgraded = async () => ((await api(tf!, "GET", `/api/v1/sites/${id}`)).json as { wp_version: string }).wp_version === "6.5";
    for (let i = 0; i < 100 && !(await upgraded()); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await tf.plan()).code).toBe(0);
  });
});

describe("a create that succeeds and a later step of it that fails", () => {
  it("a webhook endpoint created but not disabled is kept in the state, and the next apply replaces it: one endpoint", async () => {
    tf = await Terraform.start();
    tf.write(tf.providerBlock() + `resource "siteops_webhook_endpoint" "off" {\n  url     = "https://hooks.example.com/off"\n  enabled = false\n}\n`);
    await tf.init();
    await faults(tf, [{ method: "PATCH", path: "/api/v1/webhook_endpoints/*", status: 400 }]);
    const r = await tf.run(["apply", "-auto-approve", "-input=false", "-no-color"]);
    await faults(tf, []);
    expect(r.code).toBe(1);
    expect(r.stderr.replace(/\s+/g, " ")).toMatch(/Could not disable webhook endpoint we_\w+/);
    const kept = tf.rawState().resources.find((x) => x.type === "siteops_webhook_endpoint")!.instances[0]!;
    expect(kept.attributes.enabled).toBe(true);
    const again = await tf.apply();
    expect(again.stdout).toContain("1 added, 0 changed, 1 destroyed");
    expect(await onService(tf)).toEqual({ sites: 0, endpoints: 1 });
    expect((await tf.resource("siteops_webhook_endpoint.off"))?.enabled).toBe(false);
    expect((await tf.plan()).code).toBe(0);
  });
});

describe("a 429 storm that never lets up", () => {
  it("ends every call within the retry budget plus one attempt's timeout, with a diagnostic naming the budget", async () => {
    tf = await Terraform.start();
    tf.write(tf.providerBlock("  request_timeout = 1\n") + fleet("storm").replace(/resource "siteops_webhook_endpoint"[\s\S]*$/, ""));
    await tf.init();
    await faults(tf, [{ method: "POST", path: "/api/v1/sites", status: 429, retry_after: 1 }]);
    const r = await tf.run(["apply", "-auto-approve", "-input=false", "-no-color"], { env: { SITEOPS_RETRY_BUDGET_MS: "3000" } });
    const { rules } = (await (await fetch(`${tf.url}/__emulator/faults`)).json()) as { rules: { hits: number }[] };
    await faults(tf, []);
    expect(r.code).toBe(1);
    // Every 429 (Retry-After: 1) pauses all of the client's requests for at least 1 s, and every call ends 4 s
    // after it started: the six creates, started together, meet at most about 4-5 429s between them. Before,
    // each call's 429 waits and pauses moved its own deadline, and the six took turns for minutes.
    expect(rules[0]!.hits).toBeLessThanOrEqual(8);
    // Terraform wraps long lines.
    const failures = r.stderr.replace(/\s+/g, " ").split("Error: Could not create the site").slice(1);
    expect(failures).toHaveLength(6);
    for (const f of failures) expect(f).toMatch(/no success within 3 s, the retry budget \(SITEOPS_RETRY_BUDGET_MS\), plus one attempt's timeout of 1 s/);
    expect(failures.join("")).toContain("the last failure: 429 response");
    expect(await onService(tf)).toEqual({ sites: 0, endpoints: 0 });
  });
});
