// A visual check's run as the reports (report.ts) and visual.json show it: the verdicts (the core's,
// src/operations/visual-verdict.ts) with what they were taken with.

import type { SiteCheck, VisualSettings } from "../src/fleet.js";

/** A whole run: what the index report and visual.json show. */
export interface VisualRun {
  /** `compare` (against a baseline) or `rollout` (before and after each site's upgrade). */
  kind: "compare" | "rollout";
  startedAt: string;
  browser: string;
  settings: Omit<VisualSettings, "concurrency" | "timeoutMs">;
  sites: SiteCheck[];
}
