// Protocol Buffers encoding for the messages of tfplugin6.proto, driven by the descriptor the build embeds
// (protobufjs' JSON form of our .proto, produced at build time). A full protobuf runtime costs more
// start-up time than this whole file; the protocol only uses strings, bytes, bools, int64, enums,
// messages, repeated messages and maps.
//
// Decoded messages are plain objects with the .proto's field names; absent fields get proto3 defaults.
import { Cursor, ProtobufError, Sink } from "./protobuf-wire.js";

type Kind = "string" | "bytes" | "bool" | "int64" | "enum" | "message";

interface Field {
  name: string;
  id: number;
  kind: Kind;
  /** Full name of the message type (kind "message", or a map's message values). */
  type?: string;
  repeated: boolean;
  /** Maps are repeated entries {key = 1, value = 2}; keys are strings in this protocol. */
  map?: { kind: Kind; type?: string };
  /** Member of a oneof: written whenever set, even to a default value (its presence is the information). */
  oneof?: boolean;
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

const SCALARS: Record<string, Kind> = { string: "string", bytes: "bytes", bool: "bool", int64: "int64", uint64: "int64", int32: "int64", uint32: "int64" };

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
      const inOneof = new Set(Object.values(node.oneofs ?? {}).flatMap((o) => o.oneof));
      const fields = Object.entries(node.fields!).map(([name, f]): Field => {
        const target = this.kindOf(f.type, scope);
        if (f.keyType !== undefined) return { name, id: f.id, kind: "message", repeated: true, map: target };
        return { name, id: f.id, kind: target.kind, type: target.type, repeated: f.rule === "repeated", oneof: inOneof.has(name) };
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
    if (SCALARS[type]) return { kind: SCALARS[type]! };
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
    return this.decodeMessage(this.type(typeName), new Cursor(buf), buf.length);
  }

  encode(typeName: string, value: Record<string, unknown>): Uint8Array {
    const w = new Sink();
    this.encodeMessage(this.type(typeName), value, w);
    return w.finish();
  }

  private decodeMessage(t: MessageType, c: Cursor, end: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const f of t.fields) out[f.name] = f.map ? {} : f.repeated ? [] : defaultOf(f.kind);
    while (c.pos < end) {
      const tag = c.varint();
      const id = Math.floor(tag / 8);
      const wire = tag & 7;
      const f = t.byId.get(id);
      if (!f) {
        c.skip(wire);
        continue;
      }
      if (f.map) {
        const len = c.varint();
        const stop = c.pos + len;
        let key = "";
        let val: unknown = f.map.kind === "message" ? {} : defaultOf(f.map.kind);
        while (c.pos < stop) {
          const etag = c.varint();
          if (etag >>> 3 === 1) key = c.string();
          else if (etag >>> 3 === 2) val = this.decodeValue(f.map.kind, f.map.type, c);
          else c.skip(etag & 7);
        }
        (out[f.name] as Record<string, unknown>)[key] = val;
        continue;
      }
      const v = this.decodeValue(f.kind, f.type, c);
      if (f.repeated) (out[f.name] as unknown[]).push(v);
      else out[f.name] = v;
    }
    return out;
  }

  private decodeValue(kind: Kind, type: string | undefined, c: Cursor): unknown {
    switch (kind) {
      case "string":
        return c.string();
      case "bytes":
        return c.bytes();
      case "bool":
        return c.varint() !== 0;
      case "int64":
      case "enum":
        return c.signedVarint();
      case "message": {
        const len = c.varint();
        return this.decodeMessage(this.type(type!), c, c.pos + len);
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
        w.tag(id, 0);
        return w.varint(v ? 1 : 0);
      case "int64":
      case "enum": {
        const n = typeof v === "bigint" ? v : BigInt(Math.trunc(Number(v)));
        if (n === 0n && !always) return;
        w.tag(id, 0);
        return w.bigVarint(BigInt.asUintN(64, n));
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
