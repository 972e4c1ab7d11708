// CVSS 3.1 base score from a vector string (FIRST's specification, section 7), so the catalogue
// states only vectors and the scores and ratings it returns cannot disagree with them.
export interface Cvss {
  score: number;
  vector: string;
  rating: "none" | "low" | "medium" | "high" | "critical";
}

const WEIGHTS = {
  AV: { N: 0.85, A: 0.62, L: 0.55, P: 0.2 },
  AC: { L: 0.77, H: 0.44 },
  UI: { N: 0.85, R: 0.62 },
  CIA: { H: 0.56, L: 0.22, N: 0 },
} as const;

/** Round up to one decimal the way the specification's Roundup does (avoids float artefacts). */
function roundUp(value: number): number {
  const int = Math.round(value * 100000);
  return int % 10000 === 0 ? int / 100000 : (Math.floor(int / 10000) + 1) / 10;
}

function ratingOf(score: number): Cvss["rating"] {
  if (score === 0) return "none";
  if (score < 4) return "low";
  if (score < 7) return "medium";
  if (score < 9) return "high";
  return "critical";
}

export function cvss31(vector: string): Cvss {
  const parts = Object.fromEntries(
    vector
      .replace(/^CVSS:3\.1\//, "")
      .split("/")
      .map((p) => p.split(":") as [string, string]),
  ) as Record<string, string>;
  const get = <T extends Record<string, number>>(table: T, key: string): number => {
    const v = table[parts[key] as keyof T];
    if (v === undefined) throw new Error(`bad CVSS vector ${vector}: ${key}`);
    return v as number;
  };
  const changed = parts.S === "C";
  const prTable = changed ? { N: 0.85, L: 0.68, H: 0.5 } : { N: 0.85, L: 0.62, H: 0.27 };
  const iss = 1 - (1 - get(WEIGHTS.CIA, "C")) * (1 - get(WEIGHTS.CIA, "I")) * (1 - get(WEIGHTS.CIA, "A"));
  const impact = changed ? 7.52 * (iss - 0.029) - 3.25 * (iss - 0.02) ** 15 : 6.42 * iss;
  const exploitability = 8.22 * get(WEIGHTS.AV, "AV") * get(WEIGHTS.AC, "AC") * get(prTable, "PR") * get(WEIGHTS.UI, "UI");
  const score = impact <= 0 ? 0 : roundUp(Math.min((changed ? 1.08 : 1) * (impact + exploitability), 10));
  return { score, vector, rating: ratingOf(score) };
}
