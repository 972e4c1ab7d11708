// The provider's V8 tiers (provider/protocol/v8-tiers.ts): baseline compilers for a process's first RPCs, V8's
// default after BASELINE_CALLS, and Node's default throughout with SITEOPS_V8_OPTIMIZE=1. The flags themselves
// are V8's; what they save is measured by bench/provider-rpc.bench.ts, not here.
import { describe, expect, it } from "vitest";
import { BASELINE_CALLS, baselineTiersFirst } from "../../provider/protocol/v8-tiers.js";

describe("V8 tiers of the provider", () => {
  it("serves the first RPCs on the baseline compilers, then turns the optimizing ones back on once", () => {
    const set: string[] = [];
    const tiers = baselineTiersFirst({}, (f) => set.push(f));
    expect(set).toEqual(["--no-maglev --no-turbofan --always-sparkplug"]);
    for (let i = 1; i < BASELINE_CALLS; i++) tiers.served();
    expect(set).toHaveLength(1);
    tiers.served();
    for (let i = 0; i < 10; i++) tiers.served();
    expect(set).toEqual(["--no-maglev --no-turbofan --always-sparkplug", "--maglev --turbofan --no-always-sparkplug"]);
  });

  it("leaves Node's default alone with SITEOPS_V8_OPTIMIZE=1", () => {
    const set: string[] = [];
    const tiers = baselineTiersFirst({ SITEOPS_V8_OPTIMIZE: "1" }, (f) => set.push(f));
    for (let i = 0; i <= BASELINE_CALLS; i++) tiers.served();
    expect(set).toEqual([]);
  });
});
