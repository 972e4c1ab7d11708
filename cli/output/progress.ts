// Progress of long runs on stderr. On a terminal: a live block, one line per task that is running under a
// header line, redrawn in place (about 10 times a second) and cleared at the end, with failures printed above
// it as they happen. Not on a terminal (cron, CI logs): no escape codes, one timestamped line per event.
// With --quiet: failures only.

import { guardLine } from "../../common/sanitize.js";
import type { Output } from "../context.js";

type Level = "info" | "notice" | "warn" | "error";

/** A line, or a function that renders it at each redraw (for elapsed times). */
type Line = string | (() => string);

export interface Progress {
  /** The live line of a running task (terminal only). */
  update(key: string, text: Line): void;
  /** A task ended: its live line goes. */
  remove(key: string): void;
  /** The header of the live block (terminal only). */
  status(text: Line): void;
  /** An event. Not on a terminal: a timestamped line (info and notice dropped under --quiet). On a terminal:
   * notices, warnings and errors are printed above the live block; info is shown by the live lines instead.
   * Under --quiet only errors. */
  event(text: string, level?: Level): void;
  /** Clears the live block. */
  close(): void;
}

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const REDRAW_MS = 100;

export function createProgress(stderr: Output, quiet: boolean): Progress {
  return stderr.isTTY && !quiet ? new LiveProgress(stderr) : new LogProgress(stderr, quiet);
}

function prefix(level: Level, out: Output): string {
  if (level === "error") return out.style.red("error: ");
  if (level === "warn") return out.style.yellow("warning: ");
  return "";
}

class LogProgress implements Progress {
  constructor(
    private readonly out: Output,
    private readonly quiet: boolean,
  ) {}
  update(): void {}
  remove(): void {}
  status(): void {}
  event(text: string, level: Level = "info"): void {
    if (this.quiet && level !== "error") return;
    const stamp = this.out.isTTY ? "" : `${new Date().toISOString()} `;
    this.out.write(`${guardLine(`${stamp}${prefix(level, this.out)}${text}`)}\n`);
  }
  close(): void {}
}

class LiveProgress implements Progress {
  readonly #out: Output;
  readonly #lines = new Map<string, Line>();
  #header: Line = "";
  #drawn = 0;
  #frame = 0;
  #timer: NodeJS.Timeout | undefined;
  readonly #restoreCursor = () => process.stderr.write("\u001b[?25h");

  constructor(out: Output) {
    this.#out = out;
  }

  update(key: string, text: Line): void {
    this.#lines.set(key, text);
    this.#start();
  }

  remove(key: string): void {
    this.#lines.delete(key);
  }

  status(text: Line): void {
    this.#header = text;
    this.#start();
  }

  event(text: string, level: Level = "info"): void {
    if (level === "info") return;
    this.#out.write(`${this.#erase()}${prefix(level, this.#out)}${text}\n`);
    this.#drawn = 0;
    if (this.#timer) this.#draw();
  }

  close(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#out.write(`${this.#erase()}\u001b[?25h`);
    this.#drawn = 0;
    process.off("exit", this.#restoreCursor);
  }

  #start(): void {
    if (this.#timer) return;
    this.#out.write("\u001b[?25l"); // no cursor blinking over the lines being redrawn
    process.on("exit", this.#restoreCursor);
    this.#timer = setInterval(() => this.#draw(), REDRAW_MS);
    this.#timer.unref();
    this.#draw();
  }

  /** Escapes that move back to the first line of the block and clear it to the end of the screen. */
  #erase(): string {
    return this.#drawn > 0 ? `\u001b[${this.#drawn}F\u001b[0J` : "\r\u001b[0J";
  }

  #draw(): void {
    const width = Math.max(20, (this.#out.columns ?? 80) - 1);
    const room = Math.max(1, (this.#out.rows ?? 24) - 2);
    const spinner = this.#out.style.cyan(FRAMES[this.#frame++ % FRAMES.length]!);
    const render = (line: Line) => (typeof line === "function" ? line() : line);
    const entries = [...this.#lines.values()].map(render);
    const shown = entries.length > room ? [...entries.slice(0, room - 1), `… and ${entries.length - room + 1} more running`] : entries;
    // A line longer than the terminal would wrap and break the count of lines to go back over.
    const lines = [`${spinner} ${render(this.#header)}`, ...shown.map((l) => `  ${l}`)].map((l) => truncate(l, width));
    this.#out.write(`${this.#erase()}${lines.join("\n")}\n`);
    this.#drawn = lines.length;
  }
}

/** Cuts a line with colour codes to `width` visible characters. */
function truncate(line: string, width: number): string {
  let visible = 0;
  let out = "";
  for (let i = 0; i < line.length; i++) {
    if (line[i] === "\u001b") {
      const end = line.indexOf("m", i);
      if (end !== -1) {
        out += line.slice(i, end + 1);
        i = end;
        continue;
      }
    }
    if (visible >= width) {
      out += "\u001b[0m";
      break;
    }
    out += line[i];
    visible++;
  }
  return out;
}

/** Bytes per second over the last few seconds, and the time left at that rate. */
export class RateMeter {
  readonly #samples: { at: number; bytes: number }[] = [];
  constructor(private readonly windowMs = 5_000) {}

  sample(bytes: number, total?: number, now = Date.now()): { rate: number | undefined; etaMs: number | undefined } {
    this.#samples.push({ at: now, bytes });
    while (this.#samples.length > 2 && now - this.#samples[0]!.at > this.windowMs) this.#samples.shift();
    const first = this.#samples[0]!;
    const seconds = (now - first.at) / 1000;
    const rate = seconds > 0.2 ? (bytes - first.bytes) / seconds : undefined;
    const etaMs = rate && total !== undefined && rate > 0 ? ((total - bytes) / rate) * 1000 : undefined;
    return { rate, etaMs };
  }
}

/** Not on a terminal, upload progress is logged at most at every 10 % step or every 30 s. */
export class ProgressThrottle {
  #nextPercent: number;
  #lastAt = Date.now();
  constructor(
    private readonly stepPercent = 10,
    private readonly intervalMs = 30_000,
  ) {
    this.#nextPercent = stepPercent;
  }

  due(done: number, total: number | undefined, now = Date.now()): boolean {
    const percent = total ? Math.floor((done * 100) / total) : 0;
    if ((total && percent >= this.#nextPercent && percent < 100) || now - this.#lastAt >= this.intervalMs) {
      if (total) this.#nextPercent = Math.floor(percent / this.stepPercent) * this.stepPercent + this.stepPercent;
      this.#lastAt = now;
      return true;
    }
    return false;
  }
}
