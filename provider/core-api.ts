// The API core as the provider uses it: the SDK ("siteops") and the fleet tools it calls ("siteops/fleet": site
// lookup by name or URL, the shard function), in one module the build makes a CommonJS bundle of its own, loaded at
// the first API call (load-core.ts). Named, not `export *`: the fleet entry also holds rollouts and vulnerability
// reports, which the provider never runs and its bundle should not carry.
export * from "../src/index.js";
export { lookupSites, shardOf, ShardSpecError } from "../src/fleet.js";
