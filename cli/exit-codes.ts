// The exit codes of `siteops`, meant for cron and CI (README: "Exit codes"), and the errors that carry one.

import { APIUserAbortError, AuthenticationError, OtpRequiredError, PermissionDeniedError, WaitTimeoutError } from "../src/index.js";
import { EmptySelectionError, SiteSelectionError } from "../src/fleet.js";

export const EXIT = {
  /** Everything asked for was done. */
  OK: 0,
  /** Some operation failed (the others still ran); for `vulns report --fail-on LEVEL`, also: a record at or above
   * LEVEL is open. */
  FAILED: 1,
  /** Bad flags or arguments, a bad config file, an unknown site: nothing was changed. */
  USAGE: 2,
  /** Not logged in, the credentials were refused, or the user lacks the permission. */
  AUTH: 3,
  /** --timeout ran out before the operations ended. */
  TIMEOUT: 4,
  /** A rollout stopped at a wave's gate: its failures exceeded --max-failures; later waves were not touched. */
  STOPPED: 5,
  /** The selection held no site (an account with none, a --status no site is in): nothing was done. --allow-empty
   * makes it a success. */
  EMPTY: 6,
  /** Another run holds the lock (EX_TEMPFAIL from sysexits.h: try again later). */
  LOCKED: 75,
  /** Interrupted by SIGINT or SIGTERM. */
  INTERRUPTED: 130,
} as const;

/** The exit code of each verdict the core gives a fleet operation's result (rolloutVerdict, policyVerdict,
 * vulnerabilityReportPassed): one mapping for every command, never decided from error text. */
export const EXIT_OF_VERDICT = {
  passed: EXIT.OK,
  failed: EXIT.FAILED,
  target_refused: EXIT.USAGE,
  refused: EXIT.AUTH,
  timed_out: EXIT.TIMEOUT,
  stopped: EXIT.STOPPED,
  interrupted: EXIT.INTERRUPTED,
} as const;

/** An error whose message is complete as it is (one line, nothing secret) and which decides the exit code. */
export class CliError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode: number) {
    super(message);
    this.name = "CliError";
    this.exitCode = exitCode;
  }
}

/** Bad flags, arguments or input: exit 2, before any request changes anything. */
export class UsageError extends CliError {
  constructor(message: string) {
    super(message, EXIT.USAGE);
    this.name = "UsageError";
  }
}

/** The exit code an error stands for. */
export function exitCodeOf(err: unknown): number {
  if (err instanceof CliError) return err.exitCode;
  if (err instanceof SiteSelectionError) return EXIT.USAGE;
  if (err instanceof EmptySelectionError) return EXIT.EMPTY;
  if (err instanceof OtpRequiredError || err instanceof AuthenticationError || err instanceof PermissionDeniedError) return EXIT.AUTH;
  if (err instanceof WaitTimeoutError) return EXIT.TIMEOUT;
  if (err instanceof APIUserAbortError) return EXIT.INTERRUPTED;
  return EXIT.FAILED;
}

/** The one code of a run with several outcomes: the most serious wins (130, then 3, then 4, then 1). */
export function worstExitCode(codes: Iterable<number>): number {
  const rank = (code: number): number => [EXIT.OK, EXIT.FAILED, EXIT.TIMEOUT, EXIT.AUTH, EXIT.INTERRUPTED].indexOf(code as 0);
  let worst: number = EXIT.OK;
  for (const code of codes) if (rank(code) > rank(worst)) worst = code;
  return worst;
}
