// Plain-text formatting for the demo's output: aligned tables, sizes, elapsed time.

/** Rows of cells as aligned columns under a header, indented. */
export function table(header, rows, indent = "    ") {
  const all = [header, ...rows].map((r) => r.map((c) => (c === null || c === undefined ? "-" : String(c))));
  const widths = header.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  return all.map((r) => indent + r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join("  ")).join("\n");
}

export function kib(bytes) {
  return bytes === null || bytes === undefined ? "-" : `${(bytes / 1024).toFixed(1)} KiB`;
}

export function clock(start) {
  return () => `[${((Date.now() - start) / 1000).toFixed(1).padStart(4)}s]`;
}
