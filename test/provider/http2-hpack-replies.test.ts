// The header blocks of the provider's replies as a client's HPACK decoder meets them, in the order of the
// connection: the fields every reply repeats enter the client's dynamic table once and are one byte each after
// (as grpc-go's server sends them: less for Terraform to decode per RPC), and a client that shrinks its table
// gets a size update and literals. Decoded by hpack.js with one table per connection, as a client keeps it.
import hpack from "hpack.js";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Encoder, F, frame, grpcBody, PREFACE, request, settings, startServer, T } from "./differential/h2-wire.js";

let server: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.close());

interface Block {
  id: number;
  bytes: Buffer;
  fields: Record<string, string>;
}

/** Sends `calls` Echo requests (one at a time: each after the previous reply) and returns every header block the
 * server wrote, in order, decoded with one decoder for the connection. */
function replies(calls: number, clientSettings: [number, number][] = [], tableSize = 4096): Promise<Block[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, "127.0.0.1");
    const decoder = hpack.decompressor.create({ table: { maxSize: tableSize } });
    const e = new Encoder();
    const blocks: Block[] = [];
    let buf = Buffer.alloc(0);
    let next = 1;
    const send = () => {
      socket.write(
        Buffer.concat([frame(T.HEADERS, F.END_HEADERS, next, e.block(request())), frame(T.DATA, F.END_STREAM, next, grpcBody(Buffer.from(`call ${next}`)))]),
      );
      next += 2;
    };
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`only ${blocks.length} header blocks`));
    }, 5_000);
    socket.on("error", reject);
    socket.on("data", (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      while (buf.length >= 9 && buf.length >= 9 + buf.readUIntBE(0, 3)) {
        const length = buf.readUIntBE(0, 3);
        const [type, flags, id] = [buf[3]!, buf[4]!, buf.readUInt32BE(5) & 0x7fffffff];
        const payload = buf.subarray(9, 9 + length);
        buf = buf.subarray(9 + length);
        if (type !== T.HEADERS) continue;
        decoder.write(payload);
        decoder.execute();
        const fields: Record<string, string> = {};
        for (let h = decoder.read(); h; h = decoder.read()) fields[h.name] = h.value;
        blocks.push({ id, bytes: payload, fields });
        if (!(flags & F.END_STREAM)) continue;
        if (id + 2 < 2 * calls) send();
        else {
          clearTimeout(timer);
          socket.destroy();
          resolve(blocks);
        }
      }
    });
    socket.write(Buffer.concat([PREFACE, settings(...clientSettings)]));
    send();
  });
}

describe("the header blocks of replies", () => {
  it("index the repeated fields: after the first reply, one byte each", async () => {
    const blocks = await replies(3);
    expect(blocks.map((b) => [b.id, b.fields])).toEqual(
      [1, 3, 5].flatMap((id) => [
        [id, { ":status": "200", "content-type": "application/grpc" }],
        [id, { "grpc-status": "0" }],
      ]),
    );
    // :status 200 and content-type; grpc-status: 2 bytes and 1 once they are in the client's table
    expect(blocks.slice(2).map((b) => b.bytes.length)).toEqual([2, 1, 2, 1]);
  });

  it("sends literals after a size update to 0 to a client whose table is smaller than the default", async () => {
    const blocks = await replies(2, [[0x1, 0]], 0);
    expect(blocks.map((b) => b.fields)).toEqual([
      { ":status": "200", "content-type": "application/grpc" },
      { "grpc-status": "0" },
      { ":status": "200", "content-type": "application/grpc" },
      { "grpc-status": "0" },
    ]);
    expect(blocks[0]!.bytes[0]).toBe(0x20); // the size update opens the first block
    expect(blocks.slice(1).map((b) => b.bytes[0])).not.toContain(0x20); // once
    // no entry in a table of size 0: the second reply's fields are literals again
    expect(blocks[2]!.bytes.length).toBeGreaterThan(2);
    expect(blocks[3]!.bytes.length).toBeGreaterThan(1);
  });
});
