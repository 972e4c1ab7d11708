// One row of the soak's table and its printer.
export interface PhaseResult {
  phase: string;
  /** Calls (core) or runs (action, terraform) attempted. */
  operations: number;
  succeeded: number;
  failed: number;
  /** Records the service holds more than once (a create carried out twice). */
  duplicates: number;
  /** Records or changes a caller was told succeeded that the service does not hold, or data that does not
   * match (wrong checksum). */
  lost: number;
  /** Records still there after a successful delete/destroy. */
  stale: number;
  wallMs: number;
  emulatorPeakRss: number;
  clientPeakRss: number;
  /** Anything worth a line under the table (first errors, fault hits). */
  notes: string[];
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

export function printTable(rows: PhaseResult[]): string {
  const header = ["phase", "operations", "succeeded", "failed", "duplicates", "lost", "stale", "wall s", "peak RSS emulator", "peak RSS client"];
  const line = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;
  const total = rows.reduce(
    (t, r) => ({
      operations: t.operations + r.operations, succeeded: t.succeeded + r.succeeded, failed: t.failed + r.failed,
      duplicates: t.duplicates + r.duplicates, lost: t.lost + r.lost, stale: t.stale + r.stale, wallMs: t.wallMs + r.wallMs,
      emulatorPeakRss: Math.max(t.emulatorPeakRss, r.emulatorPeakRss), clientPeakRss: Math.max(t.clientPeakRss, r.clientPeakRss),
    }),
    { operations: 0, succeeded: 0, failed: 0, duplicates: 0, lost: 0, stale: 0, wallMs: 0, emulatorPeakRss: 0, clientPeakRss: 0 },
  );
  const row = (name: string, r: Omit<PhaseResult, "phase" | "notes">) =>
    line([name, r.operations, r.succeeded, r.failed, r.duplicates, r.lost, r.stale, (r.wallMs / 1000).toFixed(1), mib(r.emulatorPeakRss), mib(r.clientPeakRss)]);
  const notes = rows.flatMap((r) => r.notes.map((n) => `- ${r.phase}: ${n}`));
  return [line(header), line(header.map(() => "---")), ...rows.map((r) => row(r.phase, r)), row("**total**", total), "", ...notes].join("\n");
}
