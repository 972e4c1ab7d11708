// Periodic health checks: every site is checked each `healthCheckInterval` seconds of emulator clock.
// After a clock jump a site gets one check, not one per missed interval (a monitor that was away
// looks once), and its next check is scheduled from then.
import type { EmulatorContext } from "../context.js";
import type { Job } from "./scheduler.js";
import { stmt } from "../store/db.js";
import { runHealthCheck } from "../services/health-checks.js";

export function healthChecksJob(ctx: EmulatorContext): Job {
  return {
    name: "health-checks",
    runDue(nowMs) {
      const due = stmt(ctx.db, "SELECT id FROM sites WHERE next_health_check_ms <= ? ORDER BY next_health_check_ms, seq").all(nowMs) as { id: string }[];
      for (const { id } of due) runHealthCheck(ctx, id);
    },
    nextDueMs() {
      return (stmt(ctx.db, "SELECT MIN(next_health_check_ms) AS m FROM sites").get() as { m: number | null }).m;
    },
  };
}
