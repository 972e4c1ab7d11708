// Messy fleets and the schedules run against them, for the rollout's property tests (rollout-properties.test.ts):
// fast-check arbitraries of a fleet (sites below, at and above the target; healthy, degraded and down; renamed or
// deleted between the listing and the run; pipelines that succeed, fail, roll back, hang or leave the site unhealthy;
// a service that names its pipeline states otherwise) and of a schedule (waves, budget, concurrency, gates, answers
// lost, a kill at an arbitrary point, reruns before and after the service's 24 h idempotency window, as the CLI
// reruns with its records or as the action re-runs with its keys and the same listing). runScenario seeds one into
// the emulator (in this process, reset between scenarios), runs it with the core's rolloutUpgrade and returns the
// trace every property reads: each run's listing, result, events and create calls, and what the service shows.
import fc from "fast-check";
import type { RunningEmulator } from "../../emulator/index.js";
import {
  type PipelineRequestName,
  type PipelineRequestRecord,
  parseFailureBudget,
  parseWaves,
  type RolloutEvent,
  type RolloutResult,
  rolloutUpgrade,
} from "../../src/fleet.js";
import { SiteOps, type Site, type UpgradePipeline } from "../../src/index.js";
import { ownerSeed, startSeededEmulator } from "../support/emulator.js";

const TOKEN = "sot_rolloutPropertiesToken0001";
/** The target of every scenario; the fleet's versions are below (6.5), at (6.8) or above (6.9) it. */
export const TARGET = { wp: "6.8" } as const;
const VERSIONS = { below: "6.5", at: "6.8", above: "6.9" } as const;
/** A second server's names for the emulator's states (/__emulator/pipeline-states): siteops knows none of them. */
const SECOND_SERVER = {
  running: "upgrading",
  applying: "upgrading",
  awaiting_approval: "waiting",
  succeeded: "completed",
  failed: "broken",
  rolled_back: "reverted",
};
/** 25 hours: past the service's idempotency window. */
const PAST_KEY_WINDOW_S = 25 * 3600;

interface FleetSite {
  version: keyof typeof VERSIONS;
  health: "healthy" | "degraded" | "down";
  /** How its pipeline ends (the emulator's pipeline-outcomes): `unhealthy` succeeds, its health check after it fails. */
  outcome: "succeed" | "fail" | "roll_back" | "hang" | "unhealthy";
  /** What happens to it outside the rollout: renamed, deleted or upgraded by hand between the listing and the first
   * run, or deleted between the first run and its reruns. */
  change: "none" | "renamed" | "deleted" | "upgraded_by_hand" | "deleted_later";
}

interface Schedule {
  waves: string;
  maxFailures: string;
  concurrency: number;
  gates: ("pipeline" | "health")[];
  /** The service names its pipeline states otherwise. */
  stateNames: boolean;
  /** Create requests whose answers are lost (the service carried them out; the client retries). */
  lostAnswers: number;
  /** `cli`: reruns adopt the first run's records and list the sites again; `action`: reruns send the same keys, over
   * the same listing (a sites-file), looking for pipelines of the run since it was listed. */
  mode: "cli" | "action";
  /** The first run is aborted after this many of its progress events (a kill). */
  killAfter: number | null;
  /** Reruns of the same rollout, each before or after the key window. */
  reruns: { afterKeyWindow: boolean }[];
}

export interface Scenario {
  fleet: FleetSite[];
  schedule: Schedule;
}

const weighted = <T>(...choices: [T, number][]): fc.Arbitrary<T> => fc.oneof(...choices.map(([value, weight]) => ({ arbitrary: fc.constant(value), weight })));

const siteArb: fc.Arbitrary<FleetSite> = fc.record({
  version: weighted<FleetSite["version"]>(["below", 6], ["at", 2], ["above", 1]),
  health: weighted<FleetSite["health"]>(["healthy", 10], ["degraded", 1], ["down", 1]),
  outcome: weighted<FleetSite["outcome"]>(["succeed", 10], ["fail", 1], ["roll_back", 1], ["unhealthy", 1], ["hang", 1]),
  change: weighted<FleetSite["change"]>(["none", 12], ["renamed", 2], ["deleted", 1], ["upgraded_by_hand", 1], ["deleted_later", 1]),
});

export const scenarioArb: fc.Arbitrary<Scenario> = fc.record({
  fleet: fc.array(siteArb, { minLength: 1, maxLength: 7 }),
  schedule: fc.record({
    waves: fc.constantFrom("100%", "1,100%", "1,50%,100%", "2,10%,100%", "1,2,100%"),
    maxFailures: fc.constantFrom("0", "1", "2", "2", "20%", "50%"),
    concurrency: fc.integer({ min: 1, max: 4 }),
    gates: fc.constantFrom<Schedule["gates"]>(["pipeline"], ["pipeline", "health"]),
    stateNames: fc.constantFrom(false, false, true),
    lostAnswers: fc.integer({ min: 0, max: 2 }),
    mode: fc.constantFrom<Schedule["mode"]>("cli", "action"),
    killAfter: fc.oneof({ arbitrary: fc.constant(null), weight: 3 }, { arbitrary: fc.integer({ min: 1, max: 14 }), weight: 1 }),
    reruns: fc.array(fc.record({ afterKeyWindow: fc.boolean() }), { minLength: 0, maxLength: 2 }),
  }),
});

/** One create request as the rollout made it: when, in the run's order of happenings, and for which site. */
interface CreateCall {
  siteId: string;
  /** Position among the run's events and calls (one counter: the order they happened in). */
  seq: number;
  at: number;
}

export interface RunTrace {
  /** The sites the run was given (its listing). */
  listed: Site[];
  /** Sites an earlier run of the rollout asked a pipeline for (its records; the CLI's reruns). */
  recorded: Set<string>;
  result: RolloutResult;
  events: { seq: number; at: number; event: RolloutEvent }[];
  creates: CreateCall[];
  interrupted: boolean;
  /** Every pipeline of every site, by site id, before and after the run. */
  before: Map<string, UpgradePipeline[]>;
  after: Map<string, UpgradePipeline[]>;
  /** Every site as the service shows it after the run (absent: deleted). */
  sitesAfter: Map<string, Site>;
}

export interface Trace {
  scenario: Scenario;
  /** The scenario's sites, by id, each with its model. */
  model: Map<string, FleetSite>;
  runs: RunTrace[];
}

/** The schedule's timings: short, so that a scenario costs seconds; a wave that can only end at its deadline (a
 * hanging pipeline) gets a short one, every other a generous one (a loaded machine must not time it out). */
function timings(scenario: Scenario) {
  const hangs = scenario.fleet.some((s) => s.outcome === "hang");
  return { waveTimeout: hangs ? 3500 : 30_000, unknownStateWait: 2000, healthWait: 3000, pollInterval: 10 };
}

export class ScenarioRunner {
  #emu: RunningEmulator | undefined;
  readonly #cache = new Map<string, Promise<Trace>>();

  async start(): Promise<void> {
    this.#emu = await startSeededEmulator(ownerSeed("Props", TOKEN, 0));
  }

  async close(): Promise<void> {
    await this.#emu?.close();
  }

  /** The trace of a scenario, run once: every property of the same seed reads the same runs. */
  trace(scenario: Scenario): Promise<Trace> {
    const key = JSON.stringify(scenario);
    let trace = this.#cache.get(key);
    if (!trace) {
      trace = this.#run(scenario);
      this.#cache.set(key, trace);
    }
    return trace;
  }

  async #control(method: string, path: string, body?: unknown): Promise<void> {
    const res = await fetch(`${this.#emu!.url}/__emulator/${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`control ${method} ${path}: ${res.status} ${await res.text()}`);
  }

  async #run(scenario: Scenario): Promise<Trace> {
    const emu = this.#emu!;
    await this.#control("POST", "reset");
    const { fleet, schedule } = scenario;
    const client = new SiteOps({ baseUrl: emu.url, apiToken: TOKEN, maxRetries: 4 });
    try {
      const model = new Map<string, FleetSite>();
      const created: Site[] = [];
      for (const [i, s] of fleet.entries()) {
        const site = await client.sites.create({ name: `Site ${i + 1}`, url: `https://site-${i + 1}.props.test`, wp_version: VERSIONS[s.version] });
        model.set(site.id, s);
        created.push(site);
      }
      const rules = created.flatMap((site): { site_id: string; outcome: string; health?: string }[] => {
        const s = model.get(site.id)!;
        if (s.outcome === "succeed") return [];
        if (s.outcome === "unhealthy") return [{ site_id: site.id, outcome: "succeed", health: "failed" }];
        return [{ site_id: site.id, outcome: s.outcome }];
      });
      if (rules.length) await this.#control("POST", "pipeline-outcomes", { rules });
      for (const site of created) {
        const health = model.get(site.id)!.health;
        if (health !== "healthy") await this.#control("POST", "health_checks", { site_id: site.id, status: health === "down" ? "failed" : "warning" });
      }
      if (schedule.stateNames) await this.#control("POST", "pipeline-states", { names: SECOND_SERVER });
      if (schedule.lostAnswers)
        await this.#control("POST", "faults", {
          rules: [{ method: "POST", path: "/api/v1/sites/*/upgrade_pipelines", phase: "after", reset_connection: true, count: schedule.lostAnswers }],
        });

      // The listing the first run plans from (a sites-file, for the action's reruns); then the fleet changes.
      const listedAt = new Date().toISOString();
      const listing = await client.sites.list({ per_page: 100 }).toArray();
      for (const site of created) {
        const { change } = model.get(site.id)!;
        if (change === "renamed") await client.sites.update(site.id, { name: `${site.name} (renamed)` });
        if (change === "upgraded_by_hand") await client.sites.update(site.id, { wp_version: TARGET.wp });
        if (change === "deleted") await client.sites.delete(site.id);
      }

      const records = new Map<string, PipelineRequestRecord>();
      const requestKey = ({ site, params }: PipelineRequestName) => `props-${site.id}-${JSON.stringify(params)}`;
      const runs: RunTrace[] = [];
      const attempts = [{ afterKeyWindow: false }, ...schedule.reruns];
      for (const [n, attempt] of attempts.entries()) {
        if (n === 1) for (const site of created) if (model.get(site.id)!.change === "deleted_later") await client.sites.delete(site.id);
        if (attempt.afterKeyWindow) await this.#control("POST", "clock", { advance_seconds: PAST_KEY_WINDOW_S });
        const listed = n === 0 || schedule.mode === "action" ? listing : await client.sites.list({ per_page: 100 }).toArray();
        runs.push(
          await this.#once(client, scenario, listed, [...model.keys()], {
            adopt: schedule.mode === "cli" ? [...records.values()] : undefined,
            onRequest: (r) => records.set(r.siteId, r),
            requestKey: schedule.mode === "action" ? requestKey : undefined,
            earlierRun: schedule.mode === "action" && n > 0 ? { since: listedAt } : undefined,
            killAfter: n === 0 ? schedule.killAfter : null,
          }),
        );
      }
      return { scenario, model, runs };
    } finally {
      await client.close();
    }
  }

  async #once(
    client: SiteOps,
    scenario: Scenario,
    listed: Site[],
    ids: readonly string[],
    run: {
      adopt: PipelineRequestRecord[] | undefined;
      onRequest: (r: PipelineRequestRecord) => void;
      requestKey: ((name: PipelineRequestName) => string) | undefined;
      earlierRun: { since: string } | undefined;
      killAfter: number | null;
    },
  ): Promise<RunTrace> {
    const { schedule } = scenario;
    const before = await pipelinesOf(client, ids);
    let seq = 0;
    const events: RunTrace["events"] = [];
    const creates: CreateCall[] = [];
    const kill = new AbortController();
    // Every create request of the run, as it is made (the rollout decides to open in the same tick).
    const pipelines = client.upgradePipelines;
    const create = pipelines.create.bind(pipelines);
    Object.assign(pipelines, {
      create: (...args: Parameters<typeof create>) => {
        creates.push({ siteId: args[0], seq: ++seq, at: Date.now() });
        return create(...args);
      },
    });
    try {
      const result = await rolloutUpgrade(client, listed, {
        target: TARGET,
        waves: parseWaves(schedule.waves),
        maxFailures: parseFailureBudget(schedule.maxFailures),
        concurrency: schedule.concurrency,
        gates: schedule.gates,
        ...timings(scenario),
        adopt: run.adopt,
        onRequest: run.onRequest,
        requestKey: run.requestKey,
        earlierRun: run.earlierRun,
        signal: kill.signal,
        onProgress: (event) => {
          events.push({ seq: ++seq, at: Date.now(), event });
          if (run.killAfter !== null && events.length >= run.killAfter) kill.abort();
        },
      });
      const after = await pipelinesOf(client, ids);
      const sitesAfter = new Map<string, Site>();
      for (const id of ids) {
        const site = await client.sites.get(id).catch(() => undefined);
        if (site) sitesAfter.set(id, site);
      }
      return {
        listed,
        recorded: new Set((run.adopt ?? []).map((r) => r.siteId)),
        result,
        events,
        creates,
        interrupted: kill.signal.aborted,
        before,
        after,
        sitesAfter,
      };
    } finally {
      Object.assign(pipelines, { create });
    }
  }
}

/** Every pipeline of each site (a deleted site has none). */
async function pipelinesOf(client: SiteOps, ids: readonly string[]): Promise<Map<string, UpgradePipeline[]>> {
  const out = new Map<string, UpgradePipeline[]>();
  for (const id of ids)
    out.set(
      id,
      await client.upgradePipelines
        .list(id, { per_page: 100 })
        .toArray()
        .catch(() => []),
    );
  return out;
}

/** The fleet and the schedule, as a failing property prints them. */
export function describeScenario(trace: Trace): string {
  const lines = trace.scenario.fleet.map(
    (s, i) => `  Site ${i + 1}: ${s.version} the target, ${s.health}, pipeline ${s.outcome}${s.change === "none" ? "" : `, ${s.change.replace(/_/g, " ")}`}`,
  );
  return [`fleet:`, ...lines, `schedule: ${JSON.stringify(trace.scenario.schedule)}`].join("\n");
}
