// Diagnostics: what a provider reports instead of throwing. Each may point at an attribute path, which
// Terraform turns into the "with siteops_site.x, on main.tf line 3" context under the message.

export type PathStep = { attribute: string } | { key: string } | { index: number };
export type AttributePath = readonly PathStep[];

/** `path("sites", 0, "name")`: strings are attribute names, numbers list indexes. Use `{ key }` for map keys. */
export function path(...steps: (string | number | { key: string })[]): AttributePath {
  return steps.map((s) => (typeof s === "string" ? { attribute: s } : typeof s === "number" ? { index: s } : { key: s.key }));
}

export interface Diagnostic {
  severity: "error" | "warning";
  summary: string;
  detail?: string;
  path?: AttributePath;
}

export class Diagnostics {
  readonly items: Diagnostic[] = [];

  error(summary: string, detail?: string, at?: AttributePath): void {
    this.items.push({ severity: "error", summary, detail, path: at });
  }

  warning(summary: string, detail?: string, at?: AttributePath): void {
    this.items.push({ severity: "warning", summary, detail, path: at });
  }

  get hasErrors(): boolean {
    return this.items.some((d) => d.severity === "error");
  }
}
