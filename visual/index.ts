// The visual check's engine, loaded only when a visual gate or command runs: the CLI imports it from its own
// module (dist/cli/visual.mjs, with pngjs and pixelmatch inside; playwright-core from the user's install), the
// action from action/dist/visual.js (playwright-core bundled beside it). What the CLI and the action check at once,
// before anything runs, is the core's (src/operations/visual-settings.ts).

export { launchBrowser, VisualSetupError, type VisualBrowser } from "./browser.js";
export { createVisualGate, type VisualGate } from "./gate.js";
export { BaselineError, captureBaseline, compareToBaseline, readBaseline, type BaselineManifest, type VisualProgress } from "./baseline.js";
export type { VisualRun } from "./model.js";
