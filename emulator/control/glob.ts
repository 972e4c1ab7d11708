// Fault rules' path globs (`*` within a segment, `**` across, `?` one character but "/"), matched by a
// bit-parallel automaton: one pass over the path, a few word operations per character and per 32 glob
// characters, whatever the glob (a regular expression of many stars backtracks for seconds on a long path,
// and a state-by-state automaton costs a step per glob character per path character).

/** A glob as bit masks over its positions: bit i is position i (before the i-th token), bit `size` accepts. */
export interface CompiledGlob {
  /** Tokens: one character, "?", "*" or "**" (a run of stars). */
  readonly size: number;
  /** 32-bit words per state set. */
  readonly words: number;
  /** The literal text before the first wildcard: a path without it cannot match. */
  readonly prefix: string;
  /** Positions that step forward on a character of the glob ("?" positions included but for "/"). */
  readonly step: Map<string, Uint32Array>;
  /** Positions that step forward on any other character: the "?" positions. */
  readonly stepOther: Uint32Array;
  /** Positions that stay on "/" (the "**" ones) and on any other character (every star). */
  readonly staySlash: Uint32Array;
  readonly stayOther: Uint32Array;
  /** Star positions: each may also be skipped (matching nothing). Two stars never follow each other. */
  readonly star: Uint32Array;
}

/** Counts the word operations of globMatches (tests hold it to its bound: path length x words + 1). */
export interface GlobMeter {
  steps: number;
}

const setBit = (mask: Uint32Array, i: number): void => {
  mask[i >>> 5]! |= 1 << (i & 31);
};

export function compileGlob(glob: string): CompiledGlob {
  const tokens: string[] = [];
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*" && glob[i + 1] === "*") {
      while (glob[i + 1] === "*") i++;
      tokens.push("**");
    } else tokens.push(c === "*" || c === "?" ? c : `=${c}`);
  }
  const size = tokens.length;
  const words = (size >>> 5) + 1;
  const mask = (): Uint32Array => new Uint32Array(words);
  const [stepOther, staySlash, stayOther, star] = [mask(), mask(), mask(), mask()];
  const step = new Map<string, Uint32Array>();
  tokens.forEach((t, i) => {
    if (t === "?") setBit(stepOther, i);
    else if (t === "*" || t === "**") {
      setBit(star, i);
      setBit(stayOther, i);
      if (t === "**") setBit(staySlash, i);
    } else if (!step.has(t.slice(1))) step.set(t.slice(1), mask());
  });
  tokens.forEach((t, i) => {
    if (t.startsWith("=")) setBit(step.get(t.slice(1))!, i);
  });
  // "?" steps on every character but "/", those of the glob included.
  for (const [c, m] of step) if (c !== "/") for (let w = 0; w < words; w++) m[w]! |= stepOther[w]!;
  const firstWildcard = tokens.findIndex((t) => !t.startsWith("="));
  const prefix = (firstWildcard < 0 ? tokens : tokens.slice(0, firstWildcard)).map((t) => t.slice(1)).join("");
  return { size, words, prefix, step, stepOther, staySlash, stayOther, star };
}

/** Adds to `states` the position after each active star (a star may match nothing). */
function skipStars(states: Uint32Array, star: Uint32Array, words: number): void {
  let carry = 0;
  for (let w = 0; w < words; w++) {
    const skipped = states[w]! & star[w]!;
    states[w]! |= (skipped << 1) | carry;
    carry = skipped >>> 31;
  }
}

/**
 * Whether `path` matches the glob: one pass over the path, `glob.words` word operations per character (the
 * meter counts them), and none at all when the path lacks the glob's literal prefix or no position is left.
 */
export function globMatches(glob: CompiledGlob, path: string, meter?: GlobMeter): boolean {
  if (!path.startsWith(glob.prefix)) return false;
  const { words, star } = glob;
  let states = new Uint32Array(words);
  let next = new Uint32Array(words);
  states[0] = 1;
  skipStars(states, star, words);
  let alive = true;
  let k = 0;
  for (; alive && k < path.length; k++) {
    const ch = path[k]!;
    const step = glob.step.get(ch) ?? (ch === "/" ? NONE : glob.stepOther);
    const stay = ch === "/" ? glob.staySlash : glob.stayOther;
    let carry = 0;
    let any = 0;
    for (let w = 0; w < words; w++) {
      const s = states[w]!;
      const moved = s & (step[w] ?? 0);
      const n = (moved << 1) | carry | (s & stay[w]!);
      carry = moved >>> 31;
      next[w] = n;
      any |= n;
    }
    alive = any !== 0;
    skipStars(next, star, words);
    [states, next] = [next, states];
  }
  if (meter) meter.steps += k * words;
  return alive && ((states[glob.size >>> 5]! >>> (glob.size & 31)) & 1) === 1;
}

/** No position steps forward ("/" when the glob has no "/"). */
const NONE = new Uint32Array(0);
