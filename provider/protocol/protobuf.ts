// Protocol Buffers encoding for the messages of tfplugin6.proto, driven by the descriptor the build embeds
// (protobufjs' JSON form of our .proto, produced at build time). A full protobuf runtime costs more
// start-up time than this whole file; the protocol only uses strings, bytes, bools, int64, enums,
// messages, repeated messages and maps.
//
// Decoded messages are plain objects with the .proto's field names; absent fields get proto3 defaults, oneof
// members (proto3 `optional` included) are left out unless on the wire; an int64 is a number, or a bigint
// beyond 2^53. Input is read as protobufjs and Go read it: a field with another wire type than declared is
// skipped as unknown, a repeated message field merges, and what they refuse is a ProtobufError
// (test/provider/differential/protobuf.test.ts holds the two codecs side by side).
import { Cursor, MAX_NESTING, ProtobufError, Sink, WIRE_LENGTH, WIRE_VARINT } from "./protobuf-wire.js";

type Kind = "string" | "bytes" | "bool" | "int64" | "enum" | "message";

/** The value side of a map field. */
interface MapValue {
  kind: Kind;
  type?: string;
  wire: number;
}

interface Field {
  name: string;
  id: number;
  kind: Kind;
  /** Full name of the message type (kind "message", or a map's message values). */
  type?: string;
  repeated: boolean;
  /** The wire type the field is declared with (a map's: length-delimited entries). */
  wire: number;
  /** A repeated scalar (int64, bool, enum): read packed or not, written packed (proto3's default). */
  packed: boolean;
  /** Maps are repeated entries {key = 1, value = 2}; keys are strings in this protocol. */
  map?: MapValue;
  /** Member of a oneof (proto3 `optional` included): written whenever set, even to a default value (its
   * presence is the information), absent when not on the wire; the members it replaces when read. */
  oneof?: string[];
}

interface MessageType {
  fields: Field[];
  byId: Map<number, Field>;
}

/** protobufjs' JSON descriptor shape (what `Root#toJSON()` returns). */
export interface DescriptorJSON {
  nested?: Record<string, DescriptorJSON>;
  fields?: Record<string, { type: string; id: number; rule?: string; keyType?: string }>;
  oneofs?: Record<string, { oneof: string[] }>;
  values?: Record<string, number>;
  methods?: Record<string, { requestType: string; responseType: string }>;
}

/** The scalar types tfplugin6 uses; any other is refused when the descriptor is read. */
const SCALARS: Record<string, Kind> = { string: "string", bytes: "bytes", bool: "bool", int64: "int64" };

export class Protobuf {
  private readonly types = new Map<string, MessageType>();
  private readonly messageNames = new Set<string>();
  private readonly enums = new Set<string>();
  readonly services = new Map<string, { name: string; requestType: string; responseType: string }[]>();

  constructor(root: DescriptorJSON) {
    // All names first: fields may refer to types declared later.
    const messages: [string, DescriptorJSON][] = [];
    walk("", root, (full, node) => {
      if (node.values) this.enums.add(full);
      if (node.fields) {
        this.messageNames.add(full);
        messages.push([full, node]);
      }
    });
    for (const [full, node] of messages) {
      const scope = full.split(".");
      const oneofOf = new Map<string, string[]>();
      for (const o of Object.values(node.oneofs ?? {})) for (const name of o.oneof) oneofOf.set(name, o.oneof);
      const fields = Object.entries(node.fields!).map(([name, f]): Field => {
        const target = this.kindOf(f.type, scope);
        if (f.keyType !== undefined) {
          if (f.keyType !== "string") throw new ProtobufError(`map key type ${f.keyType} in ${full} is not supported`);
          return { name, id: f.id, kind: "message", repeated: true, wire: WIRE_LENGTH, packed: false, map: { ...target, wire: wireOf(target.kind) } };
        }
        const repeated = f.rule === "repeated";
        const wire = wireOf(target.kind);
        const oneof = oneofOf.get(name)?.filter((other) => other !== name);
        return { name, id: f.id, kind: target.kind, type: target.type, repeated, wire, packed: repeated && wire === WIRE_VARINT, ...(oneof && { oneof }) };
      });
      this.types.set(full, { fields, byId: new Map(fields.map((f) => [f.id, f])) });
    }
    walk("", root, (full, node) => {
      if (!node.methods) return;
      const scope = full.split(".");
      this.services.set(
        full,
        Object.entries(node.methods).map(([name, m]) => ({
          name,
          requestType: this.resolve(m.requestType, scope),
          responseType: this.resolve(m.responseType, scope),
        })),
      );
    });
  }

  private kindOf(type: string, scope: string[]): { kind: Kind; type?: string } {
    if (Object.hasOwn(SCALARS, type)) return { kind: SCALARS[type]! };
    const full = this.resolve(type, scope);
    return this.enums.has(full) ? { kind: "enum" } : { kind: "message", type: full };
  }

  /** Protobuf name resolution: innermost enclosing scope first. */
  private resolve(name: string, scope: string[]): string {
    for (let i = scope.length; i >= 0; i--) {
      const candidate = [...scope.slice(0, i), name].join(".");
      if (this.messageNames.has(candidate) || this.enums.has(candidate)) return candidate;
    }
    throw new ProtobufError(`unknown type ${name} in ${scope.join(".")}`);
  }

  private type(name: string): MessageType {
    const t = this.types.get(name);
    if (!t) throw new ProtobufError(`unknown message ${name}`);
    return t;
  }

  decode(typeName: string, buf: Uint8Array): Record<string, unknown> {
    return this.decodeMessage(this.type(typeName), new Cursor(buf), buf.length, undefined, 0);
  }

  encode(typeName: string, value: Record<string, unknown>): Uint8Array {
    const w = new Sink();
    this.encodeMessage(this.type(typeName), value, w);
    return w.finish();
  }

  /** Reads a message up to `end` into `into` (a message already decoded when the field repeats: protobuf
   * merges them), or a new object with every field at its proto3 default, oneof members left out. */
  private decodeMessage(t: MessageType, c: Cursor, end: number, into: Record<string, unknown> | undefined, depth: number): Record<string, unknown> {
    if (depth > MAX_NESTING) throw new ProtobufError("messages nested too deeply");
    const out = into ?? this.emptyMessageOf(t);
    const outer = c.limit;
    c.limit = end;
    while (c.pos < end) {
      const tag = c.tag();
      const id = tag >>> 3;
      const wire = tag & 7;
      if (id === 0) throw new ProtobufError("field number 0");
      const f = t.byId.get(id);
      // A field sent with another wire type than declared is an unknown field to protobufjs and Go alike.
      if (!f || (wire !== f.wire && !(wire === WIRE_LENGTH && f.packed))) {
        c.skip(wire, id, depth);
        continue;
      }
      if (f.map) this.decodeEntry(f.map, c, out[f.name] as Record<string, unknown>, depth);
      else if (f.repeated) {
        const list = out[f.name] as unknown[];
        if (wire === WIRE_LENGTH && f.packed) {
          const len = c.length(); // before c.pos is read: the length's own bytes come first
          const stop = c.pos + len;
          const limit = c.limit;
          c.limit = stop;
          while (c.pos < stop) list.push(this.decodeValue(f.kind, f.type, c, depth));
          c.limit = limit;
        } else list.push(this.decodeValue(f.kind, f.type, c, depth));
      } else {
        if (f.oneof) for (const other of f.oneof) delete out[other];
        if (f.kind === "message") {
          const len = c.length();
          out[f.name] = this.decodeMessage(
            this.type(f.type!),
            c,
            c.pos + len,
            (out[f.name] as Record<string, unknown> | null | undefined) ?? undefined,
            depth + 1,
          );
        } else out[f.name] = this.decodeValue(f.kind, f.type, c, depth);
      }
    }
    if (c.pos !== end) throw new ProtobufError("length past the end of the message");
    c.limit = outer;
    return out;
  }

  /** One map entry {key = 1, value = 2} of a message `depth` levels down; either may be missing (then its
   * default). */
  private decodeEntry(map: MapValue, c: Cursor, target: Record<string, unknown>, depth: number): void {
    const len = c.length();
    const stop = c.pos + len;
    const limit = c.limit;
    c.limit = stop;
    let key = "";
    let val: unknown;
    while (c.pos < stop) {
      const tag = c.tag();
      const id = tag >>> 3;
      const wire = tag & 7;
      if (id === 0) throw new ProtobufError("field number 0");
      if (id === 1 && wire === WIRE_LENGTH) key = c.string();
      else if (id === 2 && wire === map.wire) {
        if (map.kind === "message") {
          const len = c.length();
          val = this.decodeMessage(this.type(map.type!), c, c.pos + len, val as Record<string, unknown> | undefined, depth + 1);
        } else val = this.decodeValue(map.kind, map.type, c, depth);
      } else c.skip(wire, id, depth);
    }
    c.limit = limit;
    if (val === undefined) val = map.kind === "message" ? this.emptyMessage(map.type!) : defaultOf(map.kind);
    // A key such as "__proto__" must become an own property, not reach Object.prototype's setter.
    if (key === "__proto__") Object.defineProperty(target, key, { value: val, enumerable: true, writable: true, configurable: true });
    else target[key] = val;
  }

  private emptyMessage(type: string): Record<string, unknown> {
    return this.emptyMessageOf(this.type(type));
  }

  private emptyMessageOf(t: MessageType): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const f of t.fields) if (!f.oneof) out[f.name] = f.map ? {} : f.repeated ? [] : defaultOf(f.kind);
    return out;
  }

  /** A scalar, or a message one level below `depth`. */
  private decodeValue(kind: Kind, type: string | undefined, c: Cursor, depth: number): unknown {
    switch (kind) {
      case "string":
        return c.string();
      case "bytes":
        return c.bytes();
      case "bool":
        return c.bool();
      case "int64":
        return c.int64();
      case "enum":
        return c.int32();
      case "message": {
        const len = c.length();
        return this.decodeMessage(this.type(type!), c, c.pos + len, undefined, depth + 1);
      }
    }
  }

  private encodeMessage(t: MessageType, value: Record<string, unknown>, w: Sink): void {
    for (const f of t.fields) {
      const v = value[f.name];
      if (v === undefined || v === null) continue;
      if (f.map) {
        for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
          w.tag(f.id, 2);
          const start = w.fork();
          w.tag(1, 2);
          w.string(k);
          this.encodeField(w, 2, f.map.kind, f.map.type, x);
          w.join(start);
        }
      } else if (f.packed) {
        const list = v as unknown[];
        if (list.length === 0) continue;
        w.tag(f.id, WIRE_LENGTH);
        const start = w.fork();
        for (const x of list) {
          if (f.kind === "bool") w.varint(x ? 1 : 0);
          else writeInteger(w, integer(x));
        }
        w.join(start);
      } else if (f.repeated) {
        for (const x of v as unknown[]) this.encodeField(w, f.id, f.kind, f.type, x, true);
      } else {
        this.encodeField(w, f.id, f.kind, f.type, v, !!f.oneof);
      }
    }
  }

  private encodeField(w: Sink, id: number, kind: Kind, type: string | undefined, v: unknown, always = false): void {
    switch (kind) {
      case "string":
        if (v === "" && !always) return;
        w.tag(id, 2);
        return w.string(String(v));
      case "bytes": {
        const b = v as Uint8Array;
        if (b.length === 0 && !always) return;
        w.tag(id, 2);
        return w.bytes(b);
      }
      case "bool":
        if (!v && !always) return;
        w.tag(id, WIRE_VARINT);
        return w.varint(v ? 1 : 0);
      case "int64":
      case "enum": {
        const n = integer(v);
        if (n === 0 && !always) return;
        w.tag(id, WIRE_VARINT);
        return writeInteger(w, n);
      }
      case "message": {
        w.tag(id, 2);
        const start = w.fork();
        this.encodeMessage(this.type(type!), v as Record<string, unknown>, w);
        return w.join(start);
      }
    }
  }
}

/** An int64 or enum value as given (number, bigint, numeric string), truncated toward zero. */
function integer(v: unknown): number | bigint {
  if (typeof v === "bigint") return v === 0n ? 0 : v;
  const n = Math.trunc(Number(v));
  return Number.isSafeInteger(n) ? n : BigInt(n);
}

/** A varint as int64 writes it: negative numbers as their 64-bit two's complement (10 bytes). */
function writeInteger(w: Sink, n: number | bigint): void {
  if (typeof n === "number" && n >= 0) w.varint(n);
  else w.bigVarint(BigInt.asUintN(64, BigInt(n)));
}

/** The wire type a field of this kind is declared with. */
function wireOf(kind: Kind): number {
  return kind === "bool" || kind === "int64" || kind === "enum" ? WIRE_VARINT : WIRE_LENGTH;
}

function walk(scope: string, node: DescriptorJSON, visit: (full: string, node: DescriptorJSON) => void): void {
  for (const [name, child] of Object.entries(node.nested ?? {})) {
    const full = scope ? `${scope}.${name}` : name;
    visit(full, child);
    walk(full, child, visit);
  }
}

/** The default of every absent bytes field: shared, never written to. */
const EMPTY = new Uint8Array(0);

function defaultOf(kind: Kind): unknown {
  switch (kind) {
    case "string":
      return "";
    case "bytes":
      return EMPTY;
    case "bool":
      return false;
    case "int64":
    case "enum":
      return 0;
    case "message":
      return null;
  }
}
