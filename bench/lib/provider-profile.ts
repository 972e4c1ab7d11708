// Reading V8 CPU profiles (`node --cpu-prof`) for the provider benchmarks: where a process spent its CPU,
// by source file (self time, bundles mapped back to their modules) and by function (inclusive time).
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  parent?: number;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface Frame {
  name: string;
  /** Source module: a repo-relative path, `node_modules/<pkg>/...`, `node:internal/...`, or "" for native. */
  module: string;
}

export interface Sample {
  /** Leaf first. */
  stack: Frame[];
  /** Sample time on the monotonic clock (µs), comparable with process.hrtime in another process. */
  at: number;
  /** CPU (or idle) time this sample stands for, µs. */
  us: number;
}

/** esbuild's unminified bundles open each module with a `// path` comment: line number -> module. */
function bundleModules(file: string): (line: number) => string {
  const marks: [number, string][] = [];
  if (!existsSync(file)) return () => ""; // the bundle is gone: frames keep its file name
  readFileSync(file, "utf8")
    .split("\n")
    .forEach((text, i) => {
      const m = /^\/\/ ((?:[\w@.-]+\/)*[\w@.-]+\.(?:ts|js|mjs|cjs|json))$/.exec(text);
      if (m) marks.push([i, m[1]!]);
    });
  return (line) => {
    let lo = 0;
    let hi = marks.length - 1;
    let found = "";
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (marks[mid]![0] <= line) {
        found = marks[mid]![1];
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  };
}

function moduleOf(url: string, root: string, bundles: Map<string, (line: number) => string>, line: number): string {
  if (!url) return "";
  if (url.startsWith("node:")) return url;
  const file = url.startsWith("file://") ? decodeURIComponent(new URL(url).pathname) : url;
  if (file.endsWith(".cjs") && !file.includes("/node_modules/")) {
    let map = bundles.get(file);
    if (!map) bundles.set(file, (map = bundleModules(file)));
    return map(line) || path.basename(file);
  }
  const nm = file.lastIndexOf("/node_modules/");
  if (nm >= 0) return file.slice(nm + 1);
  return file.startsWith(root + "/") ? file.slice(root.length + 1) : file;
}

/** The samples of one profile, each with its whole stack. */
export function loadSamples(file: string, root: string): Sample[] {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  for (const n of profile.nodes) for (const c of n.children ?? []) byId.get(c)!.parent = n.id;
  const bundles = new Map<string, (line: number) => string>();
  const stacks = new Map<number, Frame[]>();
  const stackOf = (id: number): Frame[] => {
    let s = stacks.get(id);
    if (s) return s;
    const n = byId.get(id)!;
    const frame = { name: n.callFrame.functionName || "(anonymous)", module: moduleOf(n.callFrame.url, root, bundles, n.callFrame.lineNumber) };
    s = [frame, ...(n.parent !== undefined ? stackOf(n.parent) : [])];
    stacks.set(id, s);
    return s;
  };
  const out: Sample[] = [];
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    // A sample stands for the time until the next one.
    const us = profile.timeDeltas[i + 1] ?? 0;
    out.push({ stack: stackOf(profile.samples[i]!).filter((f) => f.name !== "(root)"), at, us });
  }
  return out;
}

const isIdle = (s: Sample): boolean => s.stack[0]?.name === "(idle)";

/** Self time (µs) per category: `categorize` sees the stack (leaf first) of each non-idle sample. */
export function selfTime(samples: Sample[], categorize: (stack: Frame[]) => string): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of samples) {
    if (isIdle(s)) continue;
    const c = categorize(s.stack);
    out.set(c, (out.get(c) ?? 0) + s.us);
  }
  return out;
}

/** Inclusive time (µs) of the named functions of a module (a sample counts once per function on its stack). */
export function inclusiveTime(samples: Sample[], functions: { name: string; module?: string }[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of samples) {
    if (isIdle(s)) continue;
    for (const f of functions) {
      if (s.stack.some((x) => x.name === f.name && (f.module === undefined || x.module.endsWith(f.module)))) {
        out.set(f.name, (out.get(f.name) ?? 0) + s.us);
      }
    }
  }
  return out;
}

/** Busy (non-idle) CPU time in µs. */
export const busyTime = (samples: Sample[]): number => samples.reduce((t, s) => t + (isIdle(s) ? 0 : s.us), 0);
