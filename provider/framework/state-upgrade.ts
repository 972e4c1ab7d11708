// UpgradeResourceState: stored state JSON, written by any earlier schema version, brought up to the current
// one by the resource's upgraders, chained version by version.
import type * as tfplugin6 from "../protocol/tfplugin6.js";
import { fromJSON, type CtyType } from "../values/cty.js";
import type { Diagnostics } from "./diagnostics.js";
import type { ErasedResource } from "./erased.js";
import * as toProto from "./wire/to-proto.js";

export function upgradeState<D>(
  impl: ErasedResource<D>,
  type: CtyType,
  req: tfplugin6.UpgradeResourceStateRequest,
  diags: Diagnostics,
): { upgraded_state?: tfplugin6.DynamicValue } {
  const target = impl.schema.version ?? 0;
  let version = Number(req.version ?? 0);
  const raw = req.raw_state?.json;
  if (!raw || raw.length === 0) {
    if (req.raw_state?.flatmap && Object.keys(req.raw_state.flatmap).length) {
      diags.error(
        "Unsupported state format",
        "This resource's state uses the legacy flatmap format, which this provider cannot read. Remove it from state and import it again.",
      );
    }
    return { upgraded_state: toProto.dynamicValue(type, null) };
  }
  let json = JSON.parse(Buffer.from(raw).toString("utf8")) as Record<string, unknown>;
  if (version > target) {
    diags.error(
      "Resource state from a newer provider",
      `The state of this ${req.type_name} was written with schema version ${version}, but this provider only knows up to version ${target}. Use a newer provider version.`,
    );
    return {};
  }
  for (; version < target; version++) {
    const upgrade = impl.stateUpgraders?.[version];
    if (!upgrade) {
      diags.error("Missing state upgrader", `No upgrade from schema version ${version} of ${req.type_name} is defined.`);
      return {};
    }
    json = upgrade(json);
  }
  return { upgraded_state: toProto.dynamicValue(type, fromJSON(type, json)) };
}
