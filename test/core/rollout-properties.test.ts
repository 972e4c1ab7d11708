// The promises of an upgrade rollout (docs/design.md section 10, "Upgrade rollout"), each a property over generated
// messy fleets and schedules (rollout-scenarios.ts) run by the core's rolloutUpgrade against the emulator in this
// process. The same seed gives every property the same scenarios, each run once (ScenarioRunner caches the traces);
// a failing property prints the fleet and the schedule that broke it. `npm test` runs a fixed seed; a longer run
// with a random one: SITEOPS_PROPERTY_RUNS=300 SITEOPS_PROPERTY_SEED=random npx vitest run test/core/rollout-properties.test.ts
// (docs/design.md section 10, "Running the properties longer").
import fc from "fast-check";
import { afterAll, beforeAll, describe, it } from "vitest";
import { allowedFailures, parseFailureBudget, reachesTarget, type SiteRolloutResult } from "../../src/fleet.js";
import { describeScenario, type RunTrace, ScenarioRunner, scenarioArb, TARGET, type Trace } from "./rollout-scenarios.js";

const SEED = process.env.SITEOPS_PROPERTY_SEED === "random" ? Date.now() % 2 ** 31 : Number(process.env.SITEOPS_PROPERTY_SEED ?? 20261129);
const RUNS = Number(process.env.SITEOPS_PROPERTY_RUNS ?? 12);
const runner = new ScenarioRunner();

beforeAll(() => runner.start());
afterAll(() => runner.close());

/** Holds `check` for every scenario of the seed; a failure names the seed (to run it again) and the scenario. */
async function holds(check: (trace: Trace) => void): Promise<void> {
  await fc.assert(
    fc.asyncProperty(scenarioArb, async (scenario) => {
      const trace = await runner.trace(scenario);
      try {
        check(trace);
      } catch (err) {
        throw new Error(`${(err as Error).message}\n${describeScenario(trace)}\n(SITEOPS_PROPERTY_SEED=${SEED})`);
      }
    }),
    { seed: SEED, numRuns: RUNS, endOnFailure: process.env.SITEOPS_PROPERTY_SHRINK !== "1" },
  );
}

function expectThat(ok: boolean, what: string): void {
  if (!ok) throw new Error(what);
}

/** The site needs the upgrade as this run saw it: below the target in its listing, or asked for by an earlier run. */
const needs = (run: RunTrace, siteId: string): boolean => {
  const listed = run.listed.find((s) => s.id === siteId);
  return run.recorded.has(siteId) || (listed !== undefined && !reachesTarget(listed, TARGET));
};
const name = (r: SiteRolloutResult) => `${r.site.name} (${r.site.id})`;

describe("an upgrade rollout on a messy fleet", { timeout: 60 * 60_000 }, () => {
  it("a wave's verdict and budget count only the sites the wave asks something of", () =>
    holds(({ scenario, runs }) => {
      const budget = parseFailureBudget(scenario.schedule.maxFailures);
      runs.forEach((run, n) => {
        for (const w of run.result.waves) {
          for (const r of w.sites) expectThat(needs(run, r.site.id), `run ${n + 1}, wave ${w.wave}: ${name(r)} is at the target, yet in the wave`);
          expectThat(
            w.size === w.sites.length - w.counts.already_upgraded,
            `run ${n + 1}, wave ${w.wave}: size ${w.size} is not its ${w.sites.length} sites less those found upgraded`,
          );
          expectThat(w.allowed === allowedFailures(budget, w.size), `run ${n + 1}, wave ${w.wave}: ${w.allowed} allowed is not the budget of ${w.size} sites`);
          if (w.verdict === "stopped")
            expectThat(w.counts.failed > w.allowed, `run ${n + 1}, wave ${w.wave}: stopped with ${w.counts.failed} failed, ${w.allowed} allowed`);
          if (w.counts.failed > w.allowed)
            expectThat(
              ["stopped", "refused", "interrupted"].includes(w.verdict),
              `run ${n + 1}, wave ${w.wave}: ${w.verdict} with ${w.counts.failed} failed, ${w.allowed} allowed`,
            );
        }
        for (const r of run.result.current) expectThat(!needs(run, r.site.id), `run ${n + 1}: ${name(r)} needs the upgrade, yet in no wave`);
      });
    }));

  it("canaries are sites that need the change", () =>
    holds(({ runs }) => {
      runs.forEach((run, n) => {
        for (const r of run.result.waves[0]?.sites ?? []) expectThat(needs(run, r.site.id), `run ${n + 1}: the canary ${name(r)} is at the target already`);
      });
    }));

  it("no pipeline is asked for after a wave's deadline or after its budget is spent", () =>
    holds(({ scenario, runs }) => {
      const budget = parseFailureBudget(scenario.schedule.maxFailures);
      runs.forEach((run, n) => {
        for (const w of run.result.waves) {
          const members = new Set(w.sites.map((r) => r.site.id));
          const started = run.events.find((e) => e.event.type === "wave.started" && e.event.wave === w.wave);
          const creates = run.creates.filter((c) => members.has(c.siteId) && (!started || c.seq > started.seq));
          if (started?.event.type === "wave.started") {
            const deadline = started.event.deadline;
            for (const c of creates)
              expectThat(c.at <= deadline + 5, `run ${n + 1}, wave ${w.wave}: a pipeline asked for ${c.at - deadline} ms after the deadline`);
          }
          const spent = run.events.find(
            (e) =>
              e.event.type === "site.finished" &&
              e.event.wave === w.wave &&
              e.event.counts.failed > allowedFailures(budget, w.sites.length - e.event.counts.already_upgraded),
          );
          if (spent) for (const c of creates) expectThat(c.seq < spent.seq, `run ${n + 1}, wave ${w.wave}: a pipeline asked for after the budget was spent`);
          for (const r of w.sites.filter((x) => x.outcome === "untouched"))
            expectThat(!creates.some((c) => c.siteId === r.site.id), `run ${n + 1}, wave ${w.wave}: ${name(r)} is untouched, yet a pipeline was asked for`);
        }
      });
    }));

  it("at most one pipeline per site and target across reruns, whenever they happen", () =>
    holds(({ runs }) => {
      const last = runs.at(-1)!;
      for (const [siteId, pipelines] of last.after) {
        const toTarget = pipelines.filter((p) => p.to_wp_version === TARGET.wp);
        expectThat(
          toTarget.length <= 1,
          `${siteId} has ${toTarget.length} pipelines to WordPress ${TARGET.wp}: ${toTarget.map((p) => `${p.id} ${p.status}`).join(", ")}`,
        );
      }
    }));

  it("every site is judged on evidence the contract defines", () =>
    holds(({ scenario, model, runs }) => {
      runs.forEach((run, n) => {
        for (const r of run.result.sites) {
          const site = model.get(r.site.id)!;
          if (r.outcome !== "passed") continue;
          const now = run.sitesAfter.get(r.site.id);
          expectThat(
            now !== undefined && reachesTarget(now, TARGET),
            `run ${n + 1}: ${name(r)} passed, but the service shows it at ${now?.wp_version ?? "no site"}`,
          );
          expectThat(
            !["fail", "roll_back", "hang"].includes(site.outcome) &&
              site.health !== "down" &&
              site.change !== "deleted" &&
              (n === 0 || site.change !== "deleted_later"),
            `run ${n + 1}: ${name(r)} passed, though its pipeline was to ${site.outcome} (${site.health}, ${site.change})`,
          );
          if (scenario.schedule.gates.includes("health"))
            expectThat(
              site.outcome !== "unhealthy" && site.health === "healthy",
              `run ${n + 1}: ${name(r)} passed the health gate, though its checks say ${site.health}/${site.outcome}`,
            );
          if (scenario.schedule.stateNames)
            expectThat(
              r.checks[0]?.reason === "the site's own versions reached the target",
              `run ${n + 1}: ${name(r)} passed on a state siteops does not know`,
            );
        }
      });
    }));

  it("the report's counts (opened, adopted, passed, failed, untouched) equal what the service shows", () =>
    holds(({ runs }) => {
      runs.forEach((run, n) => {
        if (run.interrupted) return; // a killed run's counts stop where it was killed; its rerun is checked
        const ids = (m: Map<string, { id: string }[]>) => new Set([...m.values()].flat().map((p) => p.id));
        const before = ids(run.before);
        const opened = [...ids(run.after)].filter((id) => !before.has(id));
        const c = run.result.counts;
        expectThat(c.opened === opened.length, `run ${n + 1}: ${c.opened} opened, the service shows ${opened.length} new pipelines`);
        const count = (outcome: string) => run.result.sites.filter((r) => r.outcome === outcome).length;
        for (const outcome of ["passed", "failed", "untouched", "already_upgraded"] as const)
          expectThat(c[outcome] === count(outcome), `run ${n + 1}: counts say ${c[outcome]} ${outcome}, the records ${count(outcome)}`);
        for (const r of run.result.sites) {
          if (r.opened)
            expectThat(!!r.pipeline && !before.has(r.pipeline.id), `run ${n + 1}: ${name(r)} opened ${r.pipeline?.id}, which the service held before`);
          if (r.adopted)
            expectThat(!!r.pipeline && before.has(r.pipeline.id), `run ${n + 1}: ${name(r)} adopted ${r.pipeline?.id}, which the service did not hold before`);
          if (r.outcome === "untouched" || r.outcome === "already_upgraded")
            expectThat(
              (run.after.get(r.site.id) ?? []).length === (run.before.get(r.site.id) ?? []).length,
              `run ${n + 1}: ${name(r)} is ${r.outcome}, yet the service holds a new pipeline of it`,
            );
          if (r.pipeline && (r.outcome === "passed" || r.outcome === "failed")) {
            const held = run.after.get(r.site.id)?.find((p) => p.id === r.pipeline!.id);
            if (run.sitesAfter.has(r.site.id))
              expectThat(
                held?.status === r.pipeline.status,
                `run ${n + 1}: ${name(r)}'s pipeline is ${r.pipeline.status} in the report, ${held?.status} in the service`,
              );
          }
        }
      });
    }));

  it("a rerun picks the same canaries and waves, even once some sites have been upgraded", () =>
    holds(({ scenario, runs }) => {
      // A fresh listing without the sites deleted, or with one upgraded by hand, plans anew.
      if (scenario.schedule.mode === "cli" && scenario.fleet.some((s) => s.change !== "none" && s.change !== "renamed")) return;
      const waves = (run: RunTrace) => run.result.waves.map((w) => w.sites.map((r) => r.site.id));
      const first = JSON.stringify(waves(runs[0]!));
      runs
        .slice(1)
        .forEach((run, n) => expectThat(JSON.stringify(waves(run)) === first, `rerun ${n + 1} planned ${JSON.stringify(waves(run))}, the first run ${first}`));
    }));
});
