// Periodic health checks: every site is checked each `healthCheckInterval` seconds of emulator clock.
// After a clock jump a site gets one check, not one per missed interval (a monitor that was away
// looks once), and its next check is scheduled from then.
import type { EmulatorContext } from "../context.js";
import type { Job } from "./scheduler.js";
import { nextHealthCheckDueMs, sitesDueForCheck } from "../store/sites.js";
import { runHealthCheck } from "../services/health-checks.js";

export function healthChecksJob(ctx: EmulatorContext): Job {
  return {
    name: "health-checks",
    runDue(nowMs) {
      for (const id of sitesDueForCheck(ctx.db, nowMs)) runHealthCheck(ctx, id);
    },
    nextDueMs() {
      return nextHealthCheckDueMs(ctx.db);
    },
  };
}
