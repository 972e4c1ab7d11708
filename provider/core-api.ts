// The API core as the provider uses it: the SDK ("siteops") and its fleet tools ("siteops/fleet": site lookup,
// shards) in one module, which the build makes a CommonJS bundle of its own, loaded at the first API call
// (load-core.ts).
export * from "../src/index.js";
export * from "../src/fleet.js";
