// `command: rollout` with `gates: ...,visual`: the visual gate's pictures for the core's rollout, from the engine
// bundled beside the action (action/dist/visual.js and playwright-core: imported only here, only then). The browser
// is the runner's Chrome (GitHub's Ubuntu runners have it on PATH) or `browser`; the pictures and reports go in
// `artifacts` (default siteops-visual/ in the workspace), which the workflow uploads as an artifact.

import path from "node:path";
import { type RolloutSettings, rolloutVisualSettings, type VisualEvidence, type VisualGateReport } from "../../../src/fleet.js";

/** The artifacts folder unless `artifacts` says otherwise, relative to the workspace. */
const DEFAULT_ARTIFACTS = "siteops-visual";

export interface ActionVisual {
  evidence: VisualEvidence;
  /** The index written (when a site was judged), and what the result and the summary say of the gate. */
  finish(): VisualGateReport;
  close(): Promise<void>;
}

/** Starts the browser and the gate when the rollout names the visual gate; a string is the line the step fails
 * with (no browser): nothing was asked of the service yet. */
export async function startActionVisual(settings: RolloutSettings, env: NodeJS.ProcessEnv): Promise<ActionVisual | string | undefined> {
  if (!settings.gates.includes("visual")) return undefined;
  const engine = await import("../../../visual/index.js");
  let browser: Awaited<ReturnType<typeof engine.launchBrowser>>;
  try {
    browser = await engine.launchBrowser(settings.browser, { env, flag: "'browser'" });
  } catch (err) {
    if (err instanceof engine.VisualSetupError) return `The visual gate cannot run: ${err.message}. No pipeline was opened.`;
    throw err;
  }
  const dir = path.resolve(env.GITHUB_WORKSPACE ?? process.cwd(), settings.artifacts ?? DEFAULT_ARTIFACTS);
  const gate = engine.createVisualGate(browser, rolloutVisualSettings(settings), dir);
  return { evidence: gate, finish: () => gate.finish(), close: () => browser.close() };
}
