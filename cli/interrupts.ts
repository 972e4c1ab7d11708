// Ctrl-C and SIGTERM (process signals) while a command runs: how a run is interrupted.
// The first one aborts the run's AbortSignal (waits stop, the command prints what was started and what
// finished, and exits 130; what the service is doing carries on there); a second one exits at once.

import { EXIT } from "./exit-codes.js";

export interface Interrupts {
  signal: AbortSignal;
  /** The signal received, if any. */
  received(): NodeJS.Signals | undefined;
  dispose(): void;
}

export function trapInterrupts(): Interrupts {
  const controller = new AbortController();
  let received: NodeJS.Signals | undefined;
  const onSignal = (sig: NodeJS.Signals) => {
    if (received) {
      process.stderr.write(`\nsiteops: ${sig} again: exiting now\n`);
      process.exit(EXIT.INTERRUPTED); // the lock is released by its exit handler
    }
    received = sig;
    controller.abort(new Error(`interrupted by ${sig}`));
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return {
    signal: controller.signal,
    received: () => received,
    dispose() {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    },
  };
}
