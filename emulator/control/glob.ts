// Fault rules' path globs (`*` within a segment, `**` across, `?` one character), matched in linear time.

export type GlobToken = string | "?" | "*" | "**";

/** A glob as tokens: one character, "?" (one character but "/"), "*" (a run without "/"), "**" (any run). */
export function compileGlob(glob: string): GlobToken[] {
  const tokens: GlobToken[] = [];
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*" && glob[i + 1] === "*") {
      while (glob[i + 1] === "*") i++;
      tokens.push("**");
    } else tokens.push(c === "*" ? "*" : c === "?" ? "?" : `=${c}`);
  }
  return tokens;
}

/**
 * Whether `path` matches the glob, in time proportional to path x glob length whatever the glob (a regular
 * expression of many `**` backtracks for seconds on a long path and blocks every request meanwhile).
 */
export function globMatches(tokens: GlobToken[], path: string): boolean {
  const n = tokens.length;
  let states = new Uint8Array(n + 1);
  const close = (s: Uint8Array): void => {
    for (let i = 0; i < n; i++) if (s[i] && (tokens[i] === "*" || tokens[i] === "**")) s[i + 1] = 1;
  };
  states[0] = 1;
  close(states);
  for (let k = 0; k < path.length; k++) {
    const ch = path[k]!;
    const next = new Uint8Array(n + 1);
    let any = false;
    for (let i = 0; i < n; i++) {
      if (!states[i]) continue;
      const t = tokens[i]!;
      if (t === "**" || (t === "*" && ch !== "/")) next[i] = 1;
      else if ((t === "?" && ch !== "/") || t === `=${ch}`) next[i + 1] = 1;
      else continue;
      any = true;
    }
    if (!any) return false;
    close(next);
    states = next;
  }
  return states[n] === 1;
}
