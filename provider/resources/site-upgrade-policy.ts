// The `upgrade` block of siteops_site, the policy for version changes it declares, and that policy read from
// the block (strategy, approval, timeout). Apart from site-upgrade.ts (which runs pipelines) because the schema
// (site-schema.ts) needs the block and nothing else of upgrades.
import type { NestedBlock } from "../framework/schema.js";
import { oneOf, stringMatches } from "../framework/validators.js";

const DEFAULT_UPGRADE_TIMEOUT = "30m";
const DURATION = /^(?=\d)(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/;

export const upgradeBlock = {
  nesting: "single",
  block: {
    description:
      "How a change of `wp_version` or `php_version` is applied. Without this block: through an upgrade pipeline, without approval, waiting up to 30 minutes.",
    attributes: {
      strategy: {
        type: "string",
        optional: true,
        description:
          '`"pipeline"` (default): apply opens an upgrade pipeline (pre-upgrade snapshot, preflight, apply, verify, rollback on failure) and waits for it; a downgrade is refused at plan time. `"direct"`: the versions are changed in place without any of that (a downgrade is allowed).',
        validators: [oneOf("pipeline", "direct")],
      },
      require_approval: {
        type: "bool",
        optional: true,
        description:
          "The pipeline stops before applying until someone approves it (in the console, with `siteops upgrade approve --site <site id>` as the plan's warning says, or the GitHub Action); apply waits for that, up to `timeout`. Default `false`: the plan that `terraform apply` shows and asks to confirm (with its warning that a pipeline will run) is the approval; `true` adds a second one in the service.",
      },
      timeout: {
        type: "string",
        optional: true,
        description:
          'How long apply waits for the pipeline to end (approval included), e.g. `"30m"`, `"1h30m"`, `"90s"`. Default `"30m"`. A pipeline still running then is left running; the next apply follows it.',
        validators: [stringMatches(DURATION, 'must be a duration such as "30m", "1h30m" or "90s"')],
      },
    },
  },
} as const satisfies NestedBlock;

/** The block as the resource's model holds it (null when absent from the configuration). */
export interface UpgradeModel {
  strategy: string | null;
  require_approval: boolean | null;
  timeout: string | null;
}

export interface UpgradePolicy {
  strategy: "pipeline" | "direct";
  requireApproval: boolean;
  timeoutMs: number;
  timeout: string;
}

export function upgradePolicy(block: UpgradeModel | null): UpgradePolicy {
  const timeout = block?.timeout ?? DEFAULT_UPGRADE_TIMEOUT;
  const m = DURATION.exec(timeout);
  const timeoutMs = m ? ((Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0)) * 60 + Number(m[3] ?? 0)) * 1000 : 30 * 60_000;
  return { strategy: block?.strategy === "direct" ? "direct" : "pipeline", requireApproval: block?.require_approval === true, timeoutMs, timeout };
}
