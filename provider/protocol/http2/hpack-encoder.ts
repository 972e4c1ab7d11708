// The encoding half of HPACK (RFC 7541) for the provider's responses, one per connection. The two fields every
// reply repeats, `content-type: application/grpc` and the trailer `grpc-status: 0`, enter the client's dynamic
// table the first time they are written and are one byte each after that, as grpc-go's server sends them (Terraform
// then decodes an index instead of two literals per reply); every other field is a literal that never enters it.
// Blocks must be encoded in the order they are written to the socket: the client's table follows that order.
import { literalField } from "./hpack.js";

/** SETTINGS_HEADER_TABLE_SIZE until the client says otherwise (RFC 9113 6.5.2). */
const DEFAULT_TABLE_SIZE = 4096;
/** The first index after the static table (RFC 7541 2.3.3): our newest entry. */
const FIRST_DYNAMIC = 62;
/** A dynamic table size update to 0 (RFC 7541 6.3): empties the client's table. */
const TABLE_SIZE_ZERO = Buffer.from([0x20]);
/** `:status: 200`, static index 8. */
const STATUS_200 = Buffer.from([0x88]);
/** Indexed fields (6.1) at our two places in the client's table. */
const INDEXED = [Buffer.from([0x80 | FIRST_DYNAMIC]), Buffer.from([0x80 | (FIRST_DYNAMIC + 1)])];

interface Field {
  key: string;
  /** Literal with incremental indexing (RFC 7541 6.2.1): written once, it enters the client's table. */
  insert: Buffer;
  /** Literal without indexing (6.2.2), once the client's table is too small for ours. */
  literal: Buffer;
}

function field(key: string, insertHead: number[], name: string | number, value: string): Field {
  const literal = literalField(name, value);
  // A literal without indexing starts 0000 (a 4-bit name index); with indexing 01 (a 6-bit one): same strings.
  const strings = typeof name === "number" ? literal.subarray(name < 15 ? 1 : 2) : literal.subarray(1);
  return { key, insert: Buffer.concat([Buffer.from(insertHead), strings]), literal };
}

/** content-type, its name at static index 31; grpc-status, a name of its own. Together 104 bytes of table. */
const CONTENT_TYPE = field("content-type", [0x40 | 31], 31, "application/grpc");
const GRPC_STATUS_OK = field("grpc-status", [0x40], "grpc-status", "0");

export class ResponseEncoder {
  /** Keys of the fields in the client's table, newest first: the first is at FIRST_DYNAMIC. */
  private readonly inserted: string[] = [];
  private indexing = true;
  private sizeUpdate = false;

  /** The client's SETTINGS_HEADER_TABLE_SIZE: below the default we stop indexing, and the next block opens
   * with a size update to 0 (RFC 7541 4.2: the table this side assumed no longer fits). */
  setTableSize(size: number): void {
    if (size >= DEFAULT_TABLE_SIZE || !this.indexing) return;
    this.indexing = false;
    this.inserted.length = 0;
    this.sizeUpdate = true;
  }

  /** `:status: 200` and `content-type: application/grpc`. */
  responseHeaders(): Buffer {
    return this.block([STATUS_200, this.field(CONTENT_TYPE)]);
  }

  /** The trailers of a call that succeeded: `grpc-status: 0`. */
  okTrailers(): Buffer {
    return this.block([this.field(GRPC_STATUS_OK)]);
  }

  /** Any header block, literals as given: opened by the size update when one is owed. */
  block(parts: Buffer[]): Buffer {
    if (this.sizeUpdate) {
      this.sizeUpdate = false;
      parts = [TABLE_SIZE_ZERO, ...parts];
    }
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  }

  private field(f: Field): Buffer {
    const at = this.inserted.indexOf(f.key);
    if (at >= 0) return INDEXED[at]!;
    if (!this.indexing) return f.literal;
    this.inserted.unshift(f.key);
    return f.insert;
  }
}
