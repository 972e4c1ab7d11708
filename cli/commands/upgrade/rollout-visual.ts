// `siteops upgrade rollout --gate visual`: the visual gate's pictures for the core's rollout (visual/gate.ts, loaded
// only when the gate is named). The browser starts before any request (missing, it is one line and exit 2); the
// pictures and reports go in --artifacts, by default a folder of the job's own under the state directory, so a rerun
// of the same rollout compares with the pictures its first run took before each upgrade. At the end: the index, and
// what the report, the notification and the output say of it.

import path from "node:path";
import { type RolloutSettings, rolloutVisualSettings, type VisualEvidence, type VisualGateReport, visualGateLine } from "../../../src/fleet.js";
import { clean } from "../../../common/sanitize.js";
import type { Context } from "../../context.js";
import { stateDir } from "../../jobs/run-state.js";
import { loadVisual, startBrowser } from "../../visual.js";

/** The gate of one run, once its browser is up. */
export interface RolloutVisual {
  /** The gate for job `name`: its folder made, its pictures taken from now on. */
  open(job: string): VisualEvidence;
  /** The index written (when a site was judged), and what the report says of the gate; null before `open`. */
  finish(): VisualGateReport | null;
  close(): Promise<void>;
}

/** Starts the browser when the rollout names the visual gate (not for a dry run); undefined otherwise. */
export async function startRolloutVisual(ctx: Context, settings: RolloutSettings, dryRun: boolean): Promise<RolloutVisual | undefined> {
  if (dryRun || !settings.gates.includes("visual")) return undefined;
  const engine = await loadVisual();
  const browser = await startBrowser(ctx, settings.browser, engine);
  let gate: ReturnType<typeof engine.createVisualGate> | undefined;
  return {
    open(job) {
      const dir = path.resolve(settings.artifacts ?? path.join(stateDir(ctx.env), "visual", job));
      gate = engine.createVisualGate(browser, rolloutVisualSettings(settings), dir);
      return gate;
    },
    finish() {
      if (!gate) return null;
      const told = gate.finish();
      if (told.report) ctx.stderr.write(`visual report: ${clean(told.report)} (${visualGateLine(told)})\n`);
      return told;
    },
    close: () => browser.close(),
  };
}
