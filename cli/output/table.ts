// Tables: aligned columns under a header on a terminal (the widest column is cut to fit its width); one
// tab-separated line per row, without header, when piped (`cut -f1`, `awk -F'\t'`), as `gh` does.

import { clean, guardLine } from "../../common/sanitize.js";
import { visibleLength, type Style } from "./style.js";

export interface Column<T> {
  header: string;
  /** The raw value: cleaned before it is printed. */
  value: (row: T) => string | number | boolean | null | undefined;
  /** Terminal only: what to show instead of the raw value (relative times, sizes), already clean. */
  display?: (row: T) => string;
  /** Terminal only: colours the cell's text. */
  color?: (text: string, row: T) => string;
  align?: "right";
}

export interface TableOptions {
  tty: boolean;
  style: Style;
  /** Terminal width; lines are fitted into it. */
  width?: number;
}

export function renderTable<T>(rows: readonly T[], columns: readonly Column<T>[], options: TableOptions): string[] {
  if (!options.tty) {
    return rows.map((row) => guardLine(columns.map((c) => clean(c.value(row))).join("\t")));
  }
  const cells = rows.map((row) => columns.map((c) => (c.display ? c.display(row) : clean(c.value(row)))));
  const widths = columns.map((c, i) => Math.max(c.header.length, ...cells.map((r) => visibleLength(r[i]!))));
  fit(
    widths,
    columns.map((c) => c.header.length),
    options.width,
  );
  const last = columns.length - 1;
  const pad = (text: string, i: number) => {
    const width = widths[i]!;
    const cut = visibleLength(text) > width ? `${text.slice(0, Math.max(0, width - 1))}…` : text;
    const gap = " ".repeat(Math.max(0, width - visibleLength(cut)));
    if (columns[i]!.align === "right") return gap + cut;
    return i === last ? cut : cut + gap; // no trailing spaces
  };
  const lines = [
    options.style.bold(
      columns
        .map((c, i) => pad(c.header, i))
        .join("  ")
        .trimEnd(),
    ),
  ];
  rows.forEach((row, r) => {
    lines.push(
      columns
        .map((c, i) => {
          const text = pad(cells[r]![i]!, i);
          return c.color ? c.color(text, row) : text;
        })
        .join("  ")
        .trimEnd(),
    );
  });
  return lines;
}

/** Narrows the widest columns until the line fits `width` (never below the header or 8 characters). */
function fit(widths: number[], minimums: number[], width: number | undefined): void {
  if (!width || width < 20) return;
  const total = () => widths.reduce((a, b) => a + b, 0) + 2 * (widths.length - 1);
  while (total() > width) {
    let widest = 0;
    for (let i = 1; i < widths.length; i++) if (widths[i]! > widths[widest]!) widest = i;
    const floor = Math.max(minimums[widest]!, 8);
    if (widths[widest]! <= floor) return;
    widths[widest] = Math.max(floor, widths[widest]! - (total() - width));
  }
}

/** Key/value lines for one object: aligned on a terminal, `key<TAB>value` when piped. */
export function renderFields(fields: [string, string | number | boolean | null | undefined][], options: TableOptions): string[] {
  if (!options.tty) return fields.map(([k, v]) => guardLine(`${k}\t${clean(v)}`));
  const width = Math.max(...fields.map(([k]) => k.length));
  return fields.map(([k, v]) => `${options.style.bold(`${k}:`.padEnd(width + 1))} ${clean(v)}`.trimEnd());
}

/** Applies `paint` to the text of a padded cell, leaving the padding outside the colour codes. */
export function paintCell(paint: (word: string) => string): (text: string) => string {
  return (text) => text.replace(/\S(?:.*\S)?/, (word) => paint(word));
}
