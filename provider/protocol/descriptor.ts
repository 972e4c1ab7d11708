// The protobuf codec for tfplugin6.proto. The bundle embeds the descriptor generated at build time
// (scripts/build-provider.mjs), so start-up neither parses .proto text nor loads a protobuf library;
// unbundled runs (tests via tsx) parse the .proto with protobufjs, a devDependency.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Protobuf, type DescriptorJSON } from "./protobuf.js";

declare const __TFPLUGIN6_DESCRIPTOR__: DescriptorJSON | undefined;

export function descriptorJSON(): DescriptorJSON {
  if (typeof __TFPLUGIN6_DESCRIPTOR__ !== "undefined") return __TFPLUGIN6_DESCRIPTOR__;
  // A runtime require keeps protobufjs out of the bundle.
  const protobufjs = createRequire(import.meta.url)("protobufjs") as typeof import("protobufjs");
  const source = readFileSync(new URL("./tfplugin6.proto", import.meta.url), "utf8");
  return protobufjs.parse(source, { keepCase: true }).root.toJSON() as DescriptorJSON;
}

export function loadProtocol(): Protobuf {
  return new Protobuf(descriptorJSON());
}
