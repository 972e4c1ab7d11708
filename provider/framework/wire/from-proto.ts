// Wire -> framework: a tfplugin6 DynamicValue as the cty value of its type, and private state bytes as the
// framework's PrivateState (provider-server.ts and resource-rpcs.ts decode every request with these).
import type { ReceivedDynamicValue } from "../../protocol/tfplugin6.js";
import { fromJSON, type CtyType, type Value } from "../../values/cty.js";
import { decodeMsgpack } from "../../values/cty-msgpack.js";
import type { PrivateState } from "../resource.js";

/** Terraform sends msgpack; JSON is accepted too because the protocol allows either. */
export function dynamicValue(type: CtyType, dv: ReceivedDynamicValue | null | undefined): Value {
  if (!dv) return null;
  if (dv.msgpack && dv.msgpack.length) return decodeMsgpack(type, dv.msgpack);
  if (dv.json && dv.json.length) return fromJSON(type, JSON.parse(Buffer.from(dv.json).toString("utf8")));
  return null;
}

export function privateState(bytes: Uint8Array | null | undefined): PrivateState {
  if (!bytes || bytes.length === 0) return {};
  try {
    const parsed = JSON.parse(Buffer.from(bytes).toString("utf8")) as unknown;
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as PrivateState) : {};
  } catch {
    return {}; // written by something else: start afresh rather than fail the plan
  }
}
