// The protobuf types of tfplugin6.proto. The bundle embeds a JSON descriptor generated at build time
// (scripts/build-provider.mjs), so start-up skips .proto parsing; unbundled runs (tests via tsx) parse it.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import protobuf from "protobufjs/light.js";

declare const __TFPLUGIN6_DESCRIPTOR__: protobuf.INamespace | undefined;

export function loadRoot(): protobuf.Root {
  if (typeof __TFPLUGIN6_DESCRIPTOR__ !== "undefined") return protobuf.Root.fromJSON(__TFPLUGIN6_DESCRIPTOR__);
  // A runtime require keeps the full protobufjs (with its parser) out of the bundle.
  const full = createRequire(import.meta.url)("protobufjs") as typeof import("protobufjs");
  const source = readFileSync(new URL("./tfplugin6.proto", import.meta.url), "utf8");
  return full.parse(source, { keepCase: true }).root;
}

/** The descriptor the build embeds. */
export function descriptorJSON(): protobuf.INamespace {
  return loadRoot().toJSON() as protobuf.INamespace;
}
