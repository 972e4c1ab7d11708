// The connection circuit of a client: failures to connect (refused, DNS, unreachable) are shared by all of
// the client's requests. While the service does not accept connections, one request at a time probes it on
// the retry backoff schedule and the others wait for that probe instead of each retrying on its own; when
// the client's retry policy is spent they all fail together with one message, and later requests fail at
// once for CIRCUIT_OPEN_MS, after which one request probes again. Any response closes the circuit. It also
// remembers whether the service ever answered this client: before it has, a refused connection or an unknown host
// means a wrong URL or a service not running, and ends the call early (base-url-failures.ts).

import { APIConnectionError } from "../errors.js";
import { backoffDelay, type RetryPolicy } from "./retry.js";
import { changeSignal, sleep } from "./sleep.js";

/** After the retry policy was spent on connection failures, requests fail at once for this long. */
export const CIRCUIT_OPEN_MS = 30_000;

/** Returned by admit() and handed back to report() after the attempt. */
export interface CircuitTicket {
  /** The circuit's epoch when the attempt started: failures of attempts started before the circuit learnt
   * of an earlier failure are one round with it, not one each (16 concurrent first attempts count once). */
  epoch: number;
  /** This attempt is the one probe allowed while the service is unreachable. */
  probe: boolean;
}

/** "response": an HTTP response; "answered": a connection was made, but no response came (reset, TLS). */
export type AttemptOutcome = "response" | "answered" | "connect_failed" | "other";

export class ConnectionCircuit {
  readonly #origin: string;
  readonly #policy: RetryPolicy;
  readonly #now: () => number;
  /** Rounds of connection failures since the service last answered. */
  #failures = 0;
  #firstFailureAt = 0;
  #epoch = 0;
  #nextProbeAt = 0;
  #probing = false;
  #openUntil = 0;
  #openMessage = "";
  #lastError: unknown;
  #contacted = false;
  /** abandon() was called since the service last answered. */
  #gaveUp = false;
  /** Calls that entered admit() before this epoch fail with this error (abandon()). */
  #abandoned: { epoch: number; error: Error } | undefined;
  #changed = changeSignal();

  /** `policy`: the client's retry policy, which decides when the circuit gives up. */
  constructor(origin: string, policy: RetryPolicy, now: () => number = () => Date.now()) {
    this.#origin = origin;
    this.#policy = policy;
    this.#now = now;
  }

  /** The error requests fail with at once while the circuit is open, else undefined. */
  openError(): APIConnectionError | undefined {
    return this.#now() < this.#openUntil ? new APIConnectionError(this.#openMessage, { cause: this.#lastError }) : undefined;
  }

  /** True once the service has sent this client an HTTP response (any status). */
  get contacted(): boolean {
    return this.#contacted;
  }

  /** Rounds of failures to connect since the service last answered (or since abandon()). */
  get refusals(): number {
    return this.#failures;
  }

  /** True when abandon() was called and the service has not answered since. */
  get abandoned(): boolean {
    return this.#gaveUp;
  }

  /**
   * Ends the wait of every call waiting in admit() with `error` (a failure that waiting does not fix: a wrong base
   * URL, a service that is not running) and forgets the failures, so that a later call tries at once.
   */
  abandon(error: Error): void {
    this.#gaveUp = true;
    this.#openUntil = 0;
    this.#epoch++;
    this.#abandoned = { epoch: this.#epoch, error };
    this.#failures = 0;
    this.#probing = false;
    this.#nextProbeAt = 0;
    this.#notify();
  }

  /** Milliseconds until the next probe may start (0 when the circuit is closed or a probe may go now). */
  get waitMs(): number {
    return this.#failures === 0 ? 0 : Math.max(0, this.#nextProbeAt - this.#now());
  }

  /** The ticket of an attempt that may go at once (the service answers), else undefined: call admit(). */
  tryAdmit(): CircuitTicket | undefined {
    return this.#failures === 0 && this.#openUntil === 0 ? { epoch: this.#epoch, probe: false } : undefined;
  }

  /**
   * Waits until an attempt may be sent. Resolves at once while the service answers; while it does not,
   * waits for this request's turn to probe (or for another probe to succeed). Rejects with the circuit's
   * APIConnectionError while it is open, with `unreachable()` when `deadline` passes first, and with
   * APIUserAbortError when `signal` aborts.
   */
  async admit(signal: AbortSignal | undefined, deadline: number, unreachable: () => Error): Promise<CircuitTicket> {
    const entered = this.#epoch;
    for (;;) {
      if (this.#abandoned && entered < this.#abandoned.epoch) throw this.#abandoned.error;
      const open = this.openError();
      if (open) throw open;
      const now = this.#now();
      if (this.#failures === 0) return { epoch: this.#epoch, probe: false };
      if (!this.#probing && now >= this.#nextProbeAt) {
        this.#probing = true;
        return { epoch: this.#epoch, probe: true };
      }
      if (now >= deadline) throw unreachable();
      const until = this.#probing ? deadline : Math.min(this.#nextProbeAt, deadline);
      await sleep(until - now, { signal, wake: this.#changed.promise });
    }
  }

  /** Reports how an admitted attempt ended. */
  report(ticket: CircuitTicket, outcome: AttemptOutcome, error?: unknown): void {
    let changed = ticket.probe;
    if (ticket.probe) this.#probing = false;
    if (outcome === "response") {
      this.#contacted = true;
      this.#gaveUp = false;
    }
    if (outcome === "answered" || outcome === "response") {
      if (this.#failures > 0) {
        this.#failures = 0;
        this.#epoch++;
        this.#openUntil = 0;
        changed = true;
      }
    } else if (outcome === "connect_failed") {
      this.#lastError = error;
      if (ticket.epoch === this.#epoch) {
        this.#recordFailure();
        changed = true;
      }
    }
    // Waiters wake only for a change (the common case, an answer while closed, allocates nothing).
    if (changed) this.#notify();
  }

  #recordFailure(): void {
    const now = this.#now();
    if (this.#failures === 0) this.#firstFailureAt = now;
    this.#failures++;
    this.#epoch++;
    const left = this.#firstFailureAt + this.#policy.budgetMs - now;
    if (this.#failures > this.#policy.maxRetries || left <= 0) {
      const seconds = ((now - this.#firstFailureAt) / 1000).toFixed(1);
      const reason = this.#lastError instanceof Error ? this.#lastError.message.replace(/\.$/, "") : "Connection error";
      this.#openMessage =
        `${reason}. ${this.#origin} accepted no connection in ${this.#failures} attempt${this.#failures === 1 ? "" : "s"} over ${seconds} s; ` +
        `requests to it fail at once for the next ${CIRCUIT_OPEN_MS / 1000} s.`;
      this.#openUntil = now + CIRCUIT_OPEN_MS;
      this.#nextProbeAt = this.#openUntil;
      return;
    }
    this.#nextProbeAt = now + Math.min(backoffDelay(this.#failures - 1), left);
  }

  #notify(): void {
    const changed = this.#changed;
    this.#changed = changeSignal();
    changed.fire();
  }
}
