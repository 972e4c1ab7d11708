// Printing service objects in the mode the user asked for: a table (terminal) or tab-separated lines
// (piped), one JSON array or object (--json, optionally only some fields), or one JSON object per line
// (--jsonl, written as each page arrives, so memory stays flat for big fleets).

import type { Context } from "../context.js";
import { safeJson } from "../../common/sanitize.js";
import { paintCell, renderFields, renderTable, type Column, type TableOptions } from "./table.js";

export function pick<T extends object>(value: T, fields: readonly string[] | undefined): object {
  if (!fields) return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(fields.map((f) => [f, record[f] ?? null]));
}

function writeLines(ctx: Context, lines: readonly string[]): void {
  if (lines.length) ctx.stdout.write(`${lines.join("\n")}\n`);
}

export interface ListOptions {
  /** Said on stderr (terminal only) when there is nothing to list, e.g. "no sites". */
  empty?: string;
}

/** --json (one array) or --jsonl (a line each) of `rows`, with --json=fields applied; false in the human mode,
 * which each caller renders its own way. */
export function printRecords<T extends object>(ctx: Context, rows: readonly T[]): boolean {
  if (ctx.format === "json")
    writeLines(ctx, [
      safeJson(
        rows.map((r) => pick(r, ctx.fields)),
        2,
      ),
    ]);
  else if (ctx.format === "jsonl")
    writeLines(
      ctx,
      rows.map((r) => safeJson(pick(r, ctx.fields))),
    );
  else return false;
  return true;
}

/** Prints a whole list. */
function printList<T extends object>(ctx: Context, rows: readonly T[], columns: readonly Column<T>[], options: ListOptions = {}): void {
  if (printRecords(ctx, rows) || ctx.quiet) return;
  if (rows.length === 0) {
    if (options.empty && ctx.stderr.isTTY) ctx.stderr.write(`${options.empty}\n`);
    return;
  }
  writeLines(ctx, renderTable(rows, columns, { tty: ctx.stdout.isTTY, style: ctx.stdout.style, width: ctx.stdout.columns }));
}

/** Prints items as they come: --jsonl line by line; the other modes collect first (a table needs every width).
 * Resolves with the number printed. */
export async function printStream<T extends object>(
  ctx: Context,
  items: AsyncIterable<T>,
  columns: readonly Column<T>[],
  options: ListOptions & { limit?: number; filter?: (item: T) => boolean } = {},
): Promise<number> {
  const rows: T[] = [];
  let count = 0;
  for await (const item of items) {
    if (options.filter && !options.filter(item)) continue;
    count++;
    if (ctx.format === "jsonl") ctx.stdout.write(`${safeJson(pick(item, ctx.fields))}\n`);
    else rows.push(item);
    if (options.limit !== undefined && count >= options.limit) break;
  }
  if (ctx.format !== "jsonl") printList(ctx, rows, columns, options);
  return count;
}

/** Prints one object: its JSON (--json/--jsonl), or its fields as aligned `key: value` lines. */
export function printObject<T extends object>(ctx: Context, value: T, fields: [string, string | number | boolean | null | undefined][]): void {
  if (ctx.format !== "human") return writeLines(ctx, [safeJson(pick(value, ctx.fields), ctx.format === "json" ? 2 : undefined)]);
  if (ctx.quiet) return;
  writeLines(ctx, renderFields(fields, { tty: ctx.stdout.isTTY, style: ctx.stdout.style }));
}

/** A table's text (a terminal's, fitted to `width`; else tab-separated lines), "" for no line; `paint` colours the
 * cells of the columns it names by header (the core declares the columns, the CLI their colours). */
export function tableText<T>(
  rows: readonly T[],
  columns: readonly Column<T>[],
  options: TableOptions,
  paint: Record<string, (word: string) => string> = {},
): string {
  const painted = columns.map((c) => (paint[c.header] ? { ...c, color: paintCell(paint[c.header]!) } : c));
  const lines = renderTable(rows, painted, options);
  return lines.length ? `${lines.join("\n")}\n` : "";
}

/** {@link tableText} on stdout; nothing (not even the header) for no row. */
export function writeTable<T>(ctx: Context, rows: readonly T[], columns: readonly Column<T>[], paint: Record<string, (word: string) => string> = {}): void {
  if (rows.length === 0) return;
  const text = tableText(rows, columns, { tty: ctx.stdout.isTTY, style: ctx.stdout.style, width: ctx.stdout.columns }, paint);
  if (text) ctx.stdout.write(text);
}
