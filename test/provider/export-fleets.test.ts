// A few generated messy fleets (export-scenarios.ts, the seed of export-keys.test.ts) through the built CLI and the
// real terraform against the emulator (docs/design.md section 10, "Export and adopt"): the first export applied,
// then each round's renames, endpoint moves, deletions outside Terraform and new objects made in the service.
// Exported again over the earlier file, the plan imports the new objects and destroys and changes nothing, and after
// its apply the plan is empty. Exported to standard output instead (the earlier file unread), the plan is either as
// clean or refused naming `moved`, never with the advice to turn deletion protection off. SITEOPS_PROPERTY_FLEETS=N
// runs more (each takes a minute or so).
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "../cli/helpers.js";
import { applyRound, describeScenario, type EndpointSpec, SEED, type Scenario, scenarioArb, type SiteSpec } from "./export-scenarios.js";
import { OWNER_TOKEN, SAVED_PLAN, Terraform, api } from "./harness.js";

const FLEETS = Number(process.env.SITEOPS_PROPERTY_FLEETS ?? 3);
/** Scenarios with something to adopt, each with at most a dozen objects: a real terraform run per step. */
const scenarios = fc
  .sample(
    scenarioArb.filter((s) => s.sites.length + s.endpoints.length > 0 && s.sites.length <= 8),
    { seed: SEED, numRuns: FLEETS },
  )
  .map((s, i) => [i + 1, s] as const);

let tf: Terraform | undefined;
afterEach(async () => {
  await tf?.close();
  tf = undefined;
});

/** How many objects a plan destroys. */
const destroyed = (stdout: string) => Number(/(\d+) to destroy\./.exec(stdout)?.[1] ?? 0);
/** Terraform's output on one line: it wraps diagnostics at 78 columns. */
const flat = (r: { stdout: string; stderr: string }) => (r.stdout + r.stderr).replace(/\s+/g, " ");

describe.each(scenarios)("generated fleet %i, through the real terraform", (_, scenario: Scenario) => {
  it("exported again over the earlier file plans only the new objects' imports, and nothing after its apply; exported elsewhere it is clean or refused naming moved", async () => {
    const t = (tf = await Terraform.start());
    const env = { PATH: process.env.PATH, HOME: t.home, SITEOPS_BASE_URL: t.url, SITEOPS_API_TOKEN: OWNER_TOKEN };
    const tfEnv = { SITEOPS_BASE_URL: t.url, SITEOPS_API_TOKEN: OWNER_TOKEN };
    const file = path.join(t.work, "siteops-import.tf");
    const context = `\n${describeScenario(scenario)}\n(SITEOPS_PROPERTY_SEED=${SEED})`;
    /** Generated id -> the service's id. */
    const ids = new Map<string, string>();
    let made = 0;

    const createSite = async (s: SiteSpec) => {
      const body = { url: `https://fleet-${++made}.example.com`, wp_version: s.wp, php_version: s.php };
      let r = await api(t, "POST", "/api/v1/sites", { ...body, name: s.name });
      // A name the service refuses (blank, a control character) is a name nobody has: any other stands in.
      if (r.status === 422) r = await api(t, "POST", "/api/v1/sites", { ...body, name: `Site ${made}` });
      expect(r.status, JSON.stringify(r.json) + context).toBe(201);
      ids.set(s.id, (r.json as { id: string }).id);
    };
    const createEndpoint = async (e: EndpointSpec) => {
      const r = await api(t, "POST", "/api/v1/webhook_endpoints", { url: e.url });
      expect(r.status, JSON.stringify(r.json) + context).toBe(201);
      ids.set(e.id, (r.json as { id: string }).id);
    };
    const exportOver = async (form: string) => {
      const r = await runCli(["export", "terraform", "--out", `${t.work}/`, "--force", "--with-provider", "--form", form], { env });
      expect(r.code, r.stderr + context).toBe(0);
    };
    const plan = (...extra: string[]) => t.run(["plan", "-input=false", "-no-color", "-detailed-exitcode", ...extra], { env: tfEnv });
    const apply = (...extra: string[]) => t.ok(["apply", "-auto-approve", "-input=false", "-no-color", ...extra], { env: tfEnv });

    for (const s of scenario.sites) await createSite(s);
    for (const e of scenario.endpoints) await createEndpoint(e);
    await exportOver(scenario.firstForm);
    await t.ok(["init", "-input=false", "-no-color"], { env: tfEnv });
    await apply();

    let specs = { sites: scenario.sites, endpoints: scenario.endpoints };
    for (const [n, round] of scenario.rounds.entries()) {
      const next = applyRound(specs, round);
      const step = `${context}\nround ${n + 1}`;
      // The round's changes, made in the service as a person would.
      for (const s of next.sites) {
        const before = specs.sites.find((x) => x.id === s.id);
        if (before && before.name !== s.name) await api(t, "PATCH", `/api/v1/sites/${ids.get(s.id)}`, { name: s.name.trim() ? s.name : "Renamed" });
      }
      for (const e of next.endpoints) {
        const before = specs.endpoints.find((x) => x.id === e.id);
        if (before && before.url !== e.url) await api(t, "PATCH", `/api/v1/webhook_endpoints/${ids.get(e.id)}`, { url: e.url });
      }
      const kept = new Set([...next.sites, ...next.endpoints].map((x) => x.id));
      const deleted = [...specs.sites, ...specs.endpoints].filter((x) => !kept.has(x.id)).length;
      for (const s of specs.sites) if (!kept.has(s.id)) await api(t, "DELETE", `/api/v1/sites/${ids.get(s.id)}`);
      for (const e of specs.endpoints) if (!kept.has(e.id)) await api(t, "DELETE", `/api/v1/webhook_endpoints/${ids.get(e.id)}`);
      for (const s of round.newSites) await createSite(s);
      for (const e of round.newEndpoints) await createEndpoint(e);
      specs = next;

      if (!round.overEarlier) {
        // To standard output: the earlier file is not read, so renamed objects get new keys.
        const earlier = readFileSync(file, "utf8");
        const out = await runCli(["export", "terraform", "--with-provider", "--form", round.form], { env });
        expect(out.code, out.stderr + step).toBe(0);
        writeFileSync(file, out.stdout);
        const p = await plan();
        const text = flat(p);
        if (p.code === 1) expect(text, step).toMatch(/This plan (imports|destroys) siteops_\w+ \S+ here and (destroys|imports) it at another address/);
        else expect(destroyed(p.stdout), step).toBeLessThanOrEqual(deleted);
        expect(text, step).not.toContain("deletion_protection = false");
        writeFileSync(file, earlier); // and the user writes it over the earlier file after all
      }
      await exportOver(round.form);
      // Saved, and applied as checked: Terraform does not plan it again.
      const p = await plan(`-out=${SAVED_PLAN}`);
      const fresh = round.newSites.length + round.newEndpoints.length;
      expect(p.code, p.stdout + p.stderr + step).not.toBe(1);
      if (p.code === 2) {
        expect(p.stdout, p.stdout + step).toMatch(new RegExp(`Plan: ${fresh ? `${fresh} to import, ` : ""}0 to add, 0 to change, \\d+ to destroy\\.`));
        // Only objects deleted outside Terraform: Terraform does not always read a resource taken out of the
        // configuration before planning its destroy, and the apply then finds it gone.
        expect(destroyed(p.stdout), p.stdout + step).toBeLessThanOrEqual(deleted);
      } else expect(fresh, step).toBe(0);
      await apply(SAVED_PLAN);
      const again = await plan();
      expect(again.code, again.stdout + again.stderr + step).toBe(0);
    }
  }, 600_000);
});
