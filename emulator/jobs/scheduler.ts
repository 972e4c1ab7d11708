// Runs the emulator's background work (state machines, health checks, webhook deliveries) on the
// emulator clock. Work is due at a clock time; the scheduler runs what is due on a short real-time
// timer, right after a clock advance, and at the start of each API request, so a GET after a
// create with step 0 always sees the finished state. It keeps the earliest due time in memory so the
// per-request check is one comparison.
import type { Clock } from "../clock.js";

export interface Job {
  readonly name: string;
  /** Process everything due at or before nowMs (catching up several steps after a jump). */
  runDue(nowMs: number): void;
  /** The earliest clock time at which this job has work, or null. */
  nextDueMs(): number | null;
}

const TICK_MS = 200;

export class Scheduler {
  readonly #jobs: Job[] = [];
  readonly #clock: Clock;
  #nextDue = Number.POSITIVE_INFINITY;
  #timer: NodeJS.Timeout | undefined;
  #running = false;
  #onError: (job: string, err: unknown) => void;

  constructor(clock: Clock, onError: (job: string, err: unknown) => void) {
    this.#clock = clock;
    this.#onError = onError;
    clock.onAdvance(() => this.runDue());
  }

  register(job: Job): void {
    this.#jobs.push(job);
    this.#recompute();
  }

  /** Something became due at atMs. */
  poke(atMs: number): void {
    if (atMs < this.#nextDue) this.#nextDue = atMs;
  }

  /** Cheap enough to call on every request. */
  runIfDue(): void {
    if (this.#clock.nowMs() >= this.#nextDue) this.runDue();
  }

  runDue(): void {
    if (this.#running) return; // a job's own writes may poke us; the loop below picks them up
    this.#running = true;
    try {
      // Jobs can make other jobs' work due (a pipeline creates a snapshot): loop until quiet.
      for (let round = 0; round < 100; round++) {
        const now = this.#clock.nowMs();
        for (const job of this.#jobs) {
          try {
            job.runDue(now);
          } catch (err) {
            this.#onError(job.name, err);
          }
        }
        this.#recompute();
        if (this.#nextDue > this.#clock.nowMs()) break;
      }
    } finally {
      this.#running = false;
    }
  }

  #recompute(): void {
    let next = Number.POSITIVE_INFINITY;
    for (const job of this.#jobs) {
      const due = job.nextDueMs();
      if (due !== null && due < next) next = due;
    }
    this.#nextDue = next;
  }

  start(): void {
    this.#timer = setInterval(() => this.runIfDue(), TICK_MS);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
