// The action: read the inputs, run the command on the core's operations, write outputs and the job summary.
// Every failure ends here as one `setFailed` line; the token is masked before anything is printed.

import { setMaxListeners } from "node:events";
import * as core from "@actions/core";
import { writeFileExclusive } from "../../common/private-file.js";
import { describeRetry, SiteOps, type RequestLogger } from "../../src/index.js";
import { approveCommand } from "./commands/approve.js";
import type { CommandContext, CommandOutcome } from "./commands/outcome.js";
import { snapshotCommand } from "./commands/snapshot.js";
import { rolloutCommand } from "./commands/rollout.js";
import { upgradeCommand } from "./commands/upgrade.js";
import { vulnerabilitiesCommand } from "./commands/vulnerabilities.js";
import { errorLine } from "./format.js";
import { log } from "./log.js";
import { InputError, parseInputs, type ActionInputs } from "./inputs.js";
import { runInfo } from "./run-info.js";
import { writeSummary } from "./summary.js";

export async function run(): Promise<void> {
  const secrets: string[] = [];
  let client: SiteOps | undefined;
  // A cancelled workflow run sends SIGINT (then SIGTERM): stop waiting, but still write the outputs and the
  // summary of what was started. What the service is doing carries on there.
  const cancel = new AbortController();
  // Every site in flight (up to `concurrency`) listens on it through its requests and waits, and removes
  // its listeners when done: not a leak, so no MaxListenersExceededWarning in the job log.
  setMaxListeners(0, cancel.signal);
  const onSignal = (): void => cancel.abort();
  process.once("SIGINT", onSignal).once("SIGTERM", onSignal);
  try {
    const { inputs, warnings } = parseInputs({
      get: (name) => core.getInput(name),
      mask: (secret) => {
        core.setSecret(secret);
        secrets.push(secret);
      },
      env: process.env,
    });
    for (const warning of warnings) log.warning(warning);
    client = new SiteOps({ baseUrl: inputs.baseUrl, apiToken: inputs.apiToken, apiTokenSource: inputs.apiTokenSource, ...retryLines() });
    const outcome = await dispatch(client, inputs, { run: runInfo(), secrets, signal: cancel.signal });
    for (const [name, value] of Object.entries(outcome.outputs)) core.setOutput(name, value);
    if (inputs.resultFile) writeResult(inputs.resultFile, outcome.outputs.result ?? "");
    await writeSummary();
    if (outcome.failure) log.fail(outcome.failure);
  } catch (err) {
    if (err instanceof InputError) for (const warning of err.warnings) log.warning(warning);
    log.fail(errorLine(err, secrets));
  } finally {
    process.off("SIGINT", onSignal).off("SIGTERM", onSignal);
    await client?.close().catch(() => undefined);
  }
}

/** Each wait before a retry as a line of the job log when it starts (not an annotation per retry: the final
 * failure, if any, is the annotation). SITEOPS_DEBUG keeps the client's debug logger, which prints them too. */
function retryLines(): { logger?: RequestLogger } {
  if (process.env.SITEOPS_DEBUG) return {};
  return { logger: (event) => event.kind === "retry" && log.info(`SiteOps API: ${describeRetry(event)}`) };
}

/** The result is a report, like the summary: a file that cannot be written is a warning, not a failure. Written
 * as the CLI writes its files (common/private-file.ts: never through a link planted beside it), readable by the
 * steps after it (0644). */
function writeResult(file: string, result: string): void {
  try {
    writeFileExclusive(file, `${result}\n`, { mode: 0o644 });
  } catch (err) {
    log.warning(`'result-file' ${JSON.stringify(file)} could not be written: ${(err as Error).message}`);
  }
}

function dispatch(client: SiteOps, inputs: ActionInputs, context: CommandContext): Promise<CommandOutcome> {
  switch (inputs.command) {
    case "snapshot":
      return snapshotCommand(client, inputs, context);
    case "upgrade":
      return upgradeCommand(client, inputs, context);
    case "approve":
      return approveCommand(client, inputs, context);
    case "vulnerabilities":
      return vulnerabilitiesCommand(client, inputs, context);
    case "rollout":
      return rolloutCommand(client, inputs, context);
  }
}
