// The provider's protobuf codec against protobufjs 8 (the reference), over every tfplugin6 message type:
// values generated from the descriptor, encoded by one and decoded by the other both ways, then bytes
// from those encodings mutated and given to both decoders, which must agree (the same value, or both
// refuse). Where protobufjs and Go differ, the codec follows Go (a varint longer than 10 bytes in an
// unknown field is refused). Issue 53.
import fc from "fast-check";
import protobufjs from "protobufjs";
import { describe, expect, it } from "vitest";
import { descriptorJSON, loadProtocol } from "../../../provider/protocol/descriptor.js";
import type { DescriptorJSON } from "../../../provider/protocol/protobuf.js";
import { runs, TIMEOUT } from "./settings.js";

const ours = loadProtocol();
const root = protobufjs.Root.fromJSON(descriptorJSON() as protobufjs.INamespace);
root.resolveAll();

/** Every message type of the descriptor, by full name. */
function messageTypes(node: DescriptorJSON, scope = ""): string[] {
  return Object.entries(node.nested ?? {}).flatMap(([name, child]) => {
    const full = scope ? `${scope}.${name}` : name;
    return [...(child.fields ? [full] : []), ...messageTypes(child, full)];
  });
}
const TYPES = messageTypes(descriptorJSON());

type View = null | boolean | string | View[] | { [k: string]: View };

/** A message as plain data both codecs' results reduce to: int64 as decimal text, bytes as hex, maps as
 * sorted [key, value] pairs, every field at its default when unset, oneof members only when set. */
function view(T: protobufjs.Type, m: Record<string, unknown> | null | undefined, own: (m: object, name: string) => boolean): View {
  if (m === null || m === undefined) return null;
  const out: { [k: string]: View } = {};
  for (const f of T.fieldsArray) {
    const v = m[f.name];
    if (f.partOf && !own(m, f.name)) continue;
    if (f.map) {
      const entries = Object.keys((v as object) ?? {}).map((k): View => [k, scalar(f, (v as Record<string, unknown>)[k], own)]);
      out[f.name] = entries.sort((a, b) => ((a as string[])[0]! < (b as string[])[0]! ? -1 : 1));
    } else if (f.repeated) out[f.name] = ((v as unknown[]) ?? []).map((x) => scalar(f, x, own));
    else out[f.name] = scalar(f, v, own);
  }
  return out;
}

function scalar(f: protobufjs.Field, v: unknown, own: (m: object, name: string) => boolean): View {
  if (f.resolvedType instanceof protobufjs.Type)
    return view(f.resolvedType, v as Record<string, unknown>, own) ?? (f.map ? view(f.resolvedType, {}, own) : null);
  switch (f.type) {
    case "string":
      return (v as string | undefined) ?? "";
    case "bytes":
      return Buffer.from((v as Uint8Array | undefined) ?? []).toString("hex");
    case "bool":
      return (v as boolean | undefined) ?? false;
    default: // int64 and enums
      return String(v ?? 0);
  }
}

const ownOf = (m: object, name: string) => Object.hasOwn(m, name) && (m as Record<string, unknown>)[name] != null;
const viewRef = (type: string, m: protobufjs.Message) => view(root.lookupType(type), m as unknown as Record<string, unknown>, ownOf);
const viewOurs = (type: string, m: Record<string, unknown>) => view(root.lookupType(type), m, ownOf);

/** A value of `type` as the codec takes it: int64 as number or bigint, enums as int32, maps as plain
 * objects whose keys may be "__proto__" and friends. */
function arbitrary(type: string, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const T = root.lookupType(type);
  const fields: Record<string, fc.Arbitrary<unknown>> = {};
  const oneofs = T.oneofsArray.map((o) => o.fieldsArray);
  for (const f of T.fieldsArray) {
    if (f.partOf) continue;
    const value = fieldValue(f, depth);
    if (f.map) fields[f.name] = fc.array(fc.tuple(mapKey, value), { maxLength: 3 }).map(ownObject);
    else if (f.repeated) fields[f.name] = fc.array(value, { maxLength: depth > 2 ? 0 : 3 });
    else fields[f.name] = value;
  }
  const members = oneofs.map((group) => fc.option(fc.oneof(...group.map((f) => fieldValue(f, depth).map((v) => [f.name, v] as const))), { nil: undefined }));
  return fc.tuple(fc.record(fields, { requiredKeys: [] }), fc.tuple(...members)).map(([record, chosen]) => {
    const out = { ...record };
    for (const c of chosen) if (c) out[c[0]] = c[1];
    return out;
  });
}

const mapKey = fc.oneof(fc.constantFrom("", "__proto__", "constructor", "toString", "hasOwnProperty"), fc.string({ unit: "binary", maxLength: 8 }));
const ownObject = (pairs: [string, unknown][]) => {
  const o: Record<string, unknown> = {};
  for (const [k, v] of pairs) Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  return o;
};
const int64 = fc.bigInt(-(2n ** 63n), 2n ** 63n - 1n).map((b) => (Number.isSafeInteger(Number(b)) ? Number(b) : b));

function fieldValue(f: protobufjs.Field, depth: number): fc.Arbitrary<unknown> {
  if (f.resolvedType instanceof protobufjs.Type) {
    const sub = f.resolvedType.fullName.slice(1);
    return depth > 2 ? fc.constant(f.map ? {} : null) : f.map || f.repeated ? arbitrary(sub, depth + 1) : fc.option(arbitrary(sub, depth + 1), { nil: null });
  }
  if (f.resolvedType instanceof protobufjs.Enum)
    return fc.oneof(fc.constantFrom(...Object.values(f.resolvedType.values)), fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }));
  switch (f.type) {
    case "string":
      return fc.string({ unit: "binary", maxLength: 12 });
    case "bytes":
      return fc.uint8Array({ maxLength: 24 });
    case "bool":
      return fc.boolean();
    case "int64":
      return int64;
  }
  throw new Error(`no generator for ${f.type}`);
}

/** The value as protobufjs' fromObject takes it: int64 beyond 2^53 as decimal text. */
const forReference = (v: unknown): unknown =>
  typeof v === "bigint"
    ? v.toString()
    : v instanceof Uint8Array
      ? v
      : Array.isArray(v)
        ? v.map(forReference)
        : v && typeof v === "object"
          ? ownObject(Object.entries(v).map(([k, x]) => [k, forReference(x)]))
          : v;

describe("protobuf codec against protobufjs, every tfplugin6 message type", () => {
  it(
    "what the codec encodes, protobufjs decodes to the same value; and the reverse",
    () => {
      for (const type of TYPES) {
        const T = root.lookupType(type);
        fc.assert(
          fc.property(arbitrary(type), (value) => {
            const expected = viewOurs(type, value);
            const bytes = ours.encode(type, value);
            expect(viewRef(type, T.decode(bytes))).toEqual(expected);
            const theirs = T.encode(T.fromObject(forReference(value) as Record<string, unknown>)).finish();
            expect(viewOurs(type, ours.decode(type, theirs))).toEqual(expected);
          }),
          runs(60),
        );
      }
    },
    TIMEOUT,
  );

  it(
    "bytes mutated from valid messages: both decoders agree, or both refuse",
    () => {
      const sample = (type: string) => fc.sample(arbitrary(type), { seed: 1, numRuns: 3 }).map((v) => ours.encode(type, v));
      const corpus = TYPES.flatMap((type) => sample(type).map((bytes) => [type, bytes] as const));
      const mutation = fc.record({
        at: fc.nat(),
        kind: fc.constantFrom("flip", "insert", "delete", "truncate", "varint"),
        byte: fc.integer({ min: 0, max: 255 }),
      });
      fc.assert(
        fc.property(fc.constantFrom(...corpus), fc.array(mutation, { minLength: 1, maxLength: 4 }), ([type, original], mutations) => {
          let bytes = Buffer.from(original);
          for (const m of mutations) {
            const at = bytes.length ? m.at % (bytes.length + 1) : 0;
            if (m.kind === "flip" && at < bytes.length) bytes[at] = m.byte;
            else if (m.kind === "insert") bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from([m.byte]), bytes.subarray(at)]);
            else if (m.kind === "delete") bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + 1)]);
            else if (m.kind === "truncate") bytes = bytes.subarray(0, at);
            else if (m.kind === "varint") bytes = Buffer.concat([bytes.subarray(0, at), Buffer.alloc(m.byte % 12, 0xff), bytes.subarray(at)]);
          }
          const reference = attempt(() => viewRef(type, root.lookupType(type).decode(bytes)));
          const result = attempt(() => viewOurs(type, ours.decode(type, bytes)));
          if ("error" in result) expect(result.error).toMatch(/^ProtobufError/);
          // Go refuses a varint longer than 10 bytes, protobufjs skips it in an unknown field: the codec is Go.
          if ("error" in result && /longer than 10 bytes/.test(result.error) && "value" in reference) return;
          expect("error" in result ? "refused" : result.value).toEqual("error" in reference ? "refused" : reference.value);
        }),
        runs(3_000),
      );
    },
    TIMEOUT,
  );
});

function attempt(f: () => View): { value: View } | { error: string } {
  try {
    return { value: f() };
  } catch (err) {
    return { error: `${(err as Error).name}: ${(err as Error).message}` };
  }
}
