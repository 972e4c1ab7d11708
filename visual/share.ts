// The verdict on a share of changed pixels, and how the share is written: pure, so the CLI's output can use it
// without loading the pixel diff.

/** Whether a page passes: its change at or below the threshold (both in percent). */
export function passes(changed: number, threshold: number): boolean {
  return changed <= threshold;
}

/** A share in percent as people read it: `0 %`, `0.004 %`, `0.35 %`, `12.4 %`. */
export function formatShare(changed: number): string {
  if (changed === 0) return "0 %";
  if (changed < 0.01) return `${Number(changed.toPrecision(1))} %`;
  if (changed < 10) return `${Number(changed.toFixed(2))} %`;
  return `${Number(changed.toFixed(1))} %`;
}
