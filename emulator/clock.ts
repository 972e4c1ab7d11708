// The emulator's clock: real time plus an offset that the control API advances.
// The offset is persisted so that a restart does not move time backwards for stored records.
export class Clock {
  #offsetMs: number;
  readonly #listeners = new Set<() => void>();

  constructor(offsetMs = 0) {
    this.#offsetMs = offsetMs;
  }

  nowMs(): number {
    return Date.now() + this.#offsetMs;
  }

  /** ISO 8601 UTC with milliseconds and Z. */
  iso(ms: number = this.nowMs()): string {
    return new Date(ms).toISOString();
  }

  get offsetMs(): number {
    return this.#offsetMs;
  }

  advance(seconds: number): void {
    this.#offsetMs += Math.round(seconds * 1000);
    for (const l of this.#listeners) l();
  }

  onAdvance(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
