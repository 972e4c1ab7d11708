// The promises of export and adopt (docs/design.md section 10, "Export and adopt"), each a property over generated
// messy fleets and what happens to them between exports (export-scenarios.ts): the keys (provider/export/keys.ts),
// the file read back (previous-export.ts), the HCL, and a model of Terraform's plan; the provider's guard against an
// object imported and destroyed in one plan (framework/import-guard.ts) over every order Terraform may ask in. Pure,
// so many cases run fast; export-fleets.test.ts runs a few of the same scenarios through the real terraform. Each
// property is also shown to fail with its rule broken on purpose. A failure prints the fleet, the rounds and the seed:
// SITEOPS_PROPERTY_SEED=... to run it again, SITEOPS_PROPERTY_RUNS=N for more (section 10, "Running the properties
// longer").
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ExportedType } from "../../provider/export/arguments.js";
import type { FleetEntries } from "../../provider/export/fleet.js";
import { endpointBase, slugOf, validKey } from "../../provider/export/keys.js";
import { previousKeys } from "../../provider/export/previous-export.js";
import { ImportGuard } from "../../provider/framework/import-guard.js";
import {
  addressOf,
  applied,
  applyRound,
  cdktnText,
  describeScenario,
  exportFleet,
  fleetOf,
  parameters,
  plan,
  SEED,
  scenarioArb,
  type Exported,
  type Plan,
  type Scenario,
} from "./export-scenarios.js";

/** How an export is made: the real one, or one with a rule broken on purpose. */
type Exporter = (fleet: ReturnType<typeof fleetOf>, form: Exported["form"], earlier: string | undefined) => Exported;

/** One round as it went: the export, the plan it gave over the state before it, and the objects live then. */
interface Step {
  round: number;
  exported: Exported;
  plan: Plan;
  /** The plan of the same export right after its apply. */
  again: Plan;
  live: Set<string>;
  /** Ids in the state before the export. */
  held: Set<string>;
  overEarlier: boolean;
}

/** Runs the scenario: the first export applied, then each round's changes, export, plan and apply. */
function walk(s: Scenario, exporter: Exporter = exportFleet): Step[] {
  let specs = { sites: s.sites, endpoints: s.endpoints };
  let last = exporter(fleetOf(specs), s.firstForm, undefined);
  let state = applied(last);
  const steps: Step[] = [];
  s.rounds.forEach((round, i) => {
    specs = applyRound(specs, round);
    const live = new Set([...specs.sites.map((x) => x.id), ...specs.endpoints.map((x) => x.id)]);
    const exported = exporter(fleetOf(specs), round.form, round.overEarlier ? last.text : undefined);
    const p = plan(state, exported, live);
    const held = new Set(state.values());
    state = applied(exported);
    steps.push({ round: i + 1, exported, plan: p, again: plan(state, exported, live), live, held, overEarlier: round.overEarlier });
    last = exported;
  });
  return steps;
}

/** `check` holds for every scenario of the seed; a failure names the scenario and the seed. */
function holds(check: (s: Scenario, steps: Step[]) => void, exporter?: Exporter, runs?: number) {
  return fc.property(scenarioArb, (s) => {
    try {
      check(s, walk(s, exporter));
    } catch (err) {
      throw new Error(`${(err as Error).message}\n${describeScenario(s)}\n(SITEOPS_PROPERTY_SEED=${SEED})`);
    }
  });
}

/** Runs the property with a broken rule and says whether it found a scenario that breaks it. */
function breaks(property: fc.IProperty<[Scenario]>): boolean {
  return fc.check(property, { ...parameters(), endOnFailure: true }).failed;
}

const must = (ok: boolean, what: string) => {
  if (!ok) throw new Error(what);
};
const show = (value: unknown) => JSON.stringify(value);

const TYPES: [ExportedType, keyof FleetEntries][] = [
  ["siteops_site", "sites"],
  ["siteops_webhook_endpoint", "webhookEndpoints"],
];

// --- The promises -----------------------------------------------------------------------------------------------

/** "Exporting again over the earlier file never plans to destroy or to change an object that stays." */
const neverDestroys = (exporter?: Exporter) =>
  holds((_, steps) => {
    for (const step of steps.filter((x) => x.overEarlier)) {
      must(step.plan.destroys.length === 0, `round ${step.round} plans to destroy ${show(step.plan.destroys)}`);
      must(step.plan.retargets.length === 0, `round ${step.round} plans to turn one object into another at ${show(step.plan.retargets)}`);
    }
  }, exporter);

/** "It imports the new objects, and nothing else." */
const importsTheNew = (exporter?: Exporter) =>
  holds((_, steps) => {
    for (const step of steps.filter((x) => x.overEarlier)) {
      const imported = step.plan.imports.map(([, id]) => id).sort();
      const fresh = [...step.live].filter((id) => !step.held.has(id)).sort();
      must(show(imported) === show(fresh), `round ${step.round} imports ${show(imported)}, the new objects are ${show(fresh)}`);
    }
  }, exporter);

/** "After an export and its apply, the plan is empty." */
const emptyAfterApply = (exporter?: Exporter) =>
  holds((_, steps) => {
    for (const step of steps) {
      const { imports, destroys, moves, retargets } = step.again;
      must(imports.length + destroys.length + moves.length + retargets.length === 0, `after round ${step.round}'s apply the plan is ${show(step.again)}`);
    }
  }, exporter);

/** "A key names one object for good: never two objects, in any export, over the earlier file or not; and every key
 * can be written in its form." */
const keysNameOneObject = (exporter?: Exporter) =>
  holds((s, steps) => {
    const first = (exporter ?? exportFleet)(fleetOf({ sites: s.sites, endpoints: s.endpoints }), s.firstForm, undefined);
    const owner = new Map<string, string>();
    for (const [n, exported] of [first, ...steps.map((x) => x.exported)].entries()) {
      for (const [type, list] of TYPES) {
        for (const e of exported.entries[list]) {
          must(validKey(e.key, exported.form), `export ${n} writes ${show(e.key)}, which the ${exported.form} form cannot hold`);
          const named = owner.get(`${type} ${e.key}`);
          must(named === undefined || named === e.id, `export ${n} gives ${type} key ${show(e.key)} to ${e.id}; it was ${named}'s`);
          owner.set(`${type} ${e.key}`, e.id);
        }
      }
    }
  }, exporter);

/** "Exported elsewhere (not over the earlier file), a plan never turns one object into another, and an object it
 * would destroy that stays is imported at its new address in the same plan: the provider refuses that plan, naming
 * `moved`." */
const elsewhereRefused = (exporter?: Exporter) =>
  holds((_, steps) => {
    for (const step of steps.filter((x) => !x.overEarlier)) {
      must(step.plan.retargets.length === 0, `round ${step.round} plans to turn one object into another at ${show(step.plan.retargets)}`);
      const imported = new Set(step.plan.imports.map(([, id]) => id));
      for (const [address, id] of step.plan.destroys)
        must(imported.has(id), `round ${step.round} destroys ${id} at ${address} and does not import it elsewhere: nothing refuses it`);
    }
  }, exporter);

/** "The file an export wrote, read back, gives every object the key it was written with (and the CDK app too)." */
const readsBack = (read: (exported: Exported) => string = (x) => x.text) =>
  holds((_, steps) => {
    for (const step of steps) {
      const keys = previousKeys(read(step.exported));
      const app = previousKeys(cdktnText(step.exported.entries));
      for (const [type, list] of TYPES) {
        for (const e of step.exported.entries[list]) {
          must(keys[type].get(e.id)?.key === e.key, `round ${step.round}: ${e.id} was written as ${show(e.key)}, read back as ${show(keys[type].get(e.id))}`);
          must(app[type].get(e.id)?.key === e.key, `round ${step.round}: the CDK app wrote ${e.id} as ${show(e.key)}, read back ${show(app[type].get(e.id))}`);
        }
        must(
          keys[type].size === step.exported.entries[list].length,
          `round ${step.round}: read back ${keys[type].size} ${type}, wrote ${step.exported.entries[list].length}`,
        );
      }
    }
  });

// --- Rules broken on purpose ---------------------------------------------------------------------------------

/** The export that reads no earlier file (keys from today's names only). */
const forgetful: Exporter = (fleet, form) => exportFleet(fleet, form, undefined);

/** Keys from the name alone, numbered when they clash (what a key without the id's end would be). */
const nameOnly: Exporter = (fleet, form, earlier) => {
  const exported = exportFleet(fleet, form, earlier);
  const rename = (list: FleetEntries["sites"], base: (id: string) => string) => {
    const seen = new Map<string, number>();
    return list.map((e) => {
      const b = base(e.id);
      const n = (seen.get(b) ?? 0) + 1;
      seen.set(b, n);
      return { ...e, key: n === 1 ? b : `${b}_${n}`, previous: undefined };
    });
  };
  const siteName = new Map(fleet.sites.map((x) => [x.id, x.name]));
  const endpoint = new Map(fleet.webhookEndpoints.map((x) => [x.id, x]));
  const entries: FleetEntries = {
    sites: rename(exported.entries.sites, (id) => slugOf(siteName.get(id)!, "site")),
    webhookEndpoints: rename(exported.entries.webhookEndpoints, (id) => endpointBase(endpoint.get(id)!)),
  };
  return { ...exported, entries };
};

describe("export and adopt: promises over generated messy fleets", () => {
  it("exporting again over the earlier file never plans to destroy or change an object that stays", () => {
    fc.assert(neverDestroys(), parameters());
  });
  it("...which fails when the export ignores the earlier file", () => {
    expect(breaks(neverDestroys(forgetful))).toBe(true);
  });

  it("exporting again imports the new objects, and nothing else", () => {
    fc.assert(importsTheNew(), parameters());
  });
  it("...which fails when the export ignores the earlier file", () => {
    expect(breaks(importsTheNew(forgetful))).toBe(true);
  });

  it("after an export and its apply, the plan is empty", () => {
    fc.assert(emptyAfterApply(), parameters());
  });
  it("...which fails when the apply is not of what was exported (the plan then still moves or imports)", () => {
    // Broken on purpose: the state after the apply is the earlier export's, as if the apply had not happened.
    const stale = holds((_, steps) => {
      steps.forEach((step, i) => {
        if (i === 0) return;
        const before = applied(steps[i - 1]!.exported);
        const p = plan(before, step.exported, step.live);
        must(p.imports.length + p.destroys.length + p.moves.length + p.retargets.length === 0, `plan ${show(p)}`);
      });
    });
    expect(breaks(stale)).toBe(true);
  });

  it("a key names one object for good, and can be written in its form", () => {
    fc.assert(keysNameOneObject(), parameters());
  });
  it("...which fails with keys made from the name alone", () => {
    expect(breaks(keysNameOneObject(nameOnly))).toBe(true);
  });

  it("exported elsewhere, a plan never turns one object into another, and destroys an object that stays only where it imports it too (refused, naming moved)", () => {
    fc.assert(elsewhereRefused(), parameters());
  });
  it("...which fails with keys made from the name alone", () => {
    expect(breaks(elsewhereRefused(nameOnly))).toBe(true);
  });

  it("an export read back gives every object the key it was written with, in either form and in the CDK app", () => {
    fc.assert(readsBack(), parameters());
  });
  it("...which fails for a blocks-form file whose import blocks were deleted (only the map form keeps its ids without them)", () => {
    const withoutImports = (x: Exported) => x.text.replace(/import \{[^}]*\}\n/g, "");
    expect(breaks(readsBack((x) => (x.form === "blocks" ? withoutImports(x) : x.text)))).toBe(true);
  });
});

// --- The provider's guard, in every order ---------------------------------------------------------------------

interface Asked {
  id: string;
  /** The plan imports it (at its new address). */
  imported: boolean;
  /** The plan destroys it (at its old address). */
  destroyed: boolean;
  /** The resource refuses its destroy (deletion protection). */
  protectedSite: boolean;
}

const askedArb = fc.uniqueArray(
  fc.record({ id: fc.stringMatching(/^site_[a-z0-9]{4}$/), imported: fc.boolean(), destroyed: fc.boolean(), protectedSite: fc.boolean() }),
  { selector: (a) => a.id, maxLength: 8 },
);

type Side = "moved" | "refused" | "ok";

/**
 * One plan process: each import (then the imported object's own plan) and each destroy asked in an order the
 * scheduler picks; the process goes quiet once every import has been asked, as Terraform's walk does when the only
 * calls left are the destroys waiting for them. What each side reported.
 */
async function planProcess(s: fc.Scheduler, asked: Asked[], makeGuard: (quiet: () => Promise<void>) => ImportGuard) {
  let left = asked.filter((a) => a.imported).length;
  let allImported!: () => void;
  const importsDone = new Promise<void>((resolve) => (allImported = resolve));
  if (left === 0) allImported();
  const guard = makeGuard(async () => {
    await importsDone;
    await s.schedule(Promise.resolve(), "quiet");
  });
  const sides = new Map<string, { import?: Side; importedPlan?: Side; destroy?: Side }>(asked.map((a) => [a.id, {}]));
  const tasks: Promise<unknown>[] = [];
  for (const a of asked) {
    const side = sides.get(a.id)!;
    if (a.imported)
      tasks.push(
        s
          .schedule(Promise.resolve(), `import ${a.id}`)
          .then(() => {
            side.import = guard.imported("siteops_site", a.id) ? "moved" : "ok";
            if (--left === 0) allImported();
          })
          .then(() => s.schedule(Promise.resolve(), `plan imported ${a.id}`))
          .then(() => {
            side.importedPlan = guard.both("siteops_site", a.id) ? "moved" : "ok";
          }),
      );
    if (a.destroyed)
      tasks.push(
        s
          .schedule(Promise.resolve(), `destroy ${a.id}`)
          .then(() => guard.destroyMoved("siteops_site", a.id, a.protectedSite))
          .then((moved) => {
            side.destroy = moved ? "moved" : a.protectedSite ? "refused" : "ok";
          }),
      );
  }
  await s.waitFor(Promise.all(tasks));
  return sides;
}

/** "An object imported at one address and destroyed at another in one plan makes the plan fail naming moved, in any
 * order Terraform asks; a protected one is never refused with the advice to turn protection off; nothing else is
 * reported." */
const guardHolds = (makeGuard: (quiet: () => Promise<void>) => ImportGuard) =>
  fc.asyncProperty(fc.scheduler(), askedArb, async (s, asked) => {
    const sides = await planProcess(s, asked, makeGuard);
    for (const a of asked) {
      const side = sides.get(a.id)!;
      const reported = [side.import, side.importedPlan, side.destroy].includes("moved");
      if (a.imported && a.destroyed) {
        must(
          reported,
          `${a.id} is imported and destroyed and no side names moved (${s
            .report()
            .map((r) => r.label)
            .join(", ")})`,
        );
        must(
          side.destroy !== "refused",
          `${a.id}'s destroy was refused with the protection's advice (${s
            .report()
            .map((r) => r.label)
            .join(", ")})`,
        );
      } else must(!reported, `${a.id} named moved though it is not both imported and destroyed`);
    }
  });

describe("the provider's guard against an object imported and destroyed in one plan", () => {
  it("fails the plan naming moved in any order, and never answers a protected one with the protection's advice", async () => {
    await fc.assert(
      guardHolds((quiet) => new ImportGuard(quiet)),
      parameters(),
    );
  });
  it("...which fails when a refused destroy does not wait for the import", async () => {
    class Hasty extends ImportGuard {
      override settle(): Promise<boolean> {
        return Promise.resolve(false);
      }
    }
    const result = await fc.check(
      guardHolds((quiet) => new Hasty(quiet)),
      { ...parameters(), endOnFailure: true },
    );
    expect(result.failed).toBe(true);
  });
});

describe("the keys, by example", () => {
  it("a site renamed keeps its key over the earlier file, and its new name gives a new key elsewhere", () => {
    const specs = { sites: [{ id: "site_abcdefgh12345678", name: "Shop", wp: "6.5", php: "8.2" }], endpoints: [] };
    const first = exportFleet(fleetOf(specs), "map", undefined);
    expect(first.entries.sites[0]!.key).toBe("shop_12345678");
    const renamed = fleetOf({ ...specs, sites: [{ ...specs.sites[0]!, name: "Store" }] });
    expect(exportFleet(renamed, "map", first.text).entries.sites[0]!.key).toBe("shop_12345678");
    expect(exportFleet(renamed, "map", undefined).entries.sites[0]!.key).toBe("store_12345678");
    expect(addressOf("siteops_site", "shop_12345678", "blocks")).toBe("siteops_site.shop_12345678");
  });
});
