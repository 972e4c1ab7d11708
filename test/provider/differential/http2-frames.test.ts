// Hand-built HTTP/2 frames against the provider's server, each with the error RFC 9113 gives it: a
// connection error (GOAWAY with the code) or a stream error (RST_STREAM with the code, the connection
// serving on). Then the limits on what one connection may hold (docs/design.md section 4). Issue 53.
import hpack from "hpack.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  E,
  Encoder,
  type Exchange,
  F,
  PREFACE,
  T,
  exchange,
  frame,
  grpcBody,
  request,
  settings,
  startServer,
  streamAnswer,
  u32,
  windowUpdate,
} from "./h2-wire.js";

let server: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.close());

const enc = () => new Encoder();
/** HEADERS opening stream `id` with a request, ending the stream unless `open`. */
const headers = (e: Encoder, id: number, open = false, path = "/test.Echo/Echo", extra: [string, string][] = []) =>
  frame(T.HEADERS, F.END_HEADERS | (open ? 0 : F.END_STREAM), id, e.block(request(path, extra)));
const data = (id: number, body: Buffer, end = true) => frame(T.DATA, end ? F.END_STREAM : 0, id, body);

/** Fields of the header blocks the server answered on a stream. */
function fields(x: Exchange, id: number): Record<string, string> {
  const d = hpack.decompressor.create({ table: { maxSize: 4096 } });
  const out: Record<string, string> = {};
  for (const block of streamAnswer(x, id).blocks) {
    d.write(block);
    d.execute();
    for (let h = d.read(); h; h = d.read()) out[h.name] = h.value;
  }
  return out;
}

describe("connection errors: GOAWAY with the RFC's code", () => {
  const cases: [string, () => Buffer[], number][] = [
    // 3.4, 4.2
    ["a frame other than SETTINGS after the preface", () => [frame(T.PING, 0, 0, Buffer.alloc(8))], E.PROTOCOL_ERROR],
    ["a frame longer than SETTINGS_MAX_FRAME_SIZE", () => [settings(), frame(T.DATA, 0, 1, Buffer.alloc(16_385))], E.FRAME_SIZE_ERROR],
    // 6.1 DATA
    ["DATA on stream 0", () => [settings(), frame(T.DATA, 0, 0, Buffer.from("x"))], E.PROTOCOL_ERROR],
    ["DATA on an idle stream", () => [settings(), frame(T.DATA, 0, 1, Buffer.from("x"))], E.PROTOCOL_ERROR],
    [
      "DATA padded beyond its length",
      () => {
        const e = enc();
        return [settings(), headers(e, 1, true), frame(T.DATA, F.PADDED, 1, Buffer.from([3, 1, 2]))];
      },
      E.PROTOCOL_ERROR,
    ],
    [
      "DATA padded with no pad length",
      () => {
        const e = enc();
        return [settings(), headers(e, 1, true), frame(T.DATA, F.PADDED, 1)];
      },
      E.FRAME_SIZE_ERROR,
    ],
    // 6.2 HEADERS, 5.1.1 stream ids
    ["HEADERS on stream 0", () => [settings(), headers(enc(), 0)], E.PROTOCOL_ERROR],
    ["HEADERS on an even stream", () => [settings(), headers(enc(), 2)], E.PROTOCOL_ERROR],
    [
      "HEADERS on a stream id lower than one already used",
      () => {
        const e = enc();
        return [settings(), headers(e, 5), headers(e, 3)];
      },
      E.PROTOCOL_ERROR,
    ],
    [
      "HEADERS with PRIORITY and no room for it",
      () => [settings(), frame(T.HEADERS, F.END_HEADERS | F.PRIORITY, 1, Buffer.from([0, 0, 0]))],
      E.FRAME_SIZE_ERROR,
    ],
    ["HEADERS padded beyond its length", () => [settings(), frame(T.HEADERS, F.END_HEADERS | F.PADDED, 1, Buffer.from([5, 0x82]))], E.PROTOCOL_ERROR],
    // 6.3 PRIORITY
    ["PRIORITY on stream 0", () => [settings(), frame(T.PRIORITY, 0, 0, Buffer.alloc(5))], E.PROTOCOL_ERROR],
    [
      "PRIORITY of 4 bytes on an idle stream (a stream error that cannot be sent there)",
      () => [settings(), frame(T.PRIORITY, 0, 9, Buffer.alloc(4))],
      E.FRAME_SIZE_ERROR,
    ],
    // 6.4 RST_STREAM
    ["RST_STREAM on stream 0", () => [settings(), frame(T.RST_STREAM, 0, 0, u32(0))], E.PROTOCOL_ERROR],
    [
      "RST_STREAM of 3 bytes",
      () => {
        const e = enc();
        return [settings(), headers(e, 1, true), frame(T.RST_STREAM, 0, 1, Buffer.alloc(3))];
      },
      E.FRAME_SIZE_ERROR,
    ],
    ["RST_STREAM on an idle stream", () => [settings(), frame(T.RST_STREAM, 0, 7, u32(8))], E.PROTOCOL_ERROR],
    // 6.5 SETTINGS
    ["SETTINGS on stream 1", () => [settings(), frame(T.SETTINGS, 0, 1)], E.PROTOCOL_ERROR],
    ["SETTINGS ACK with a payload", () => [settings(), frame(T.SETTINGS, F.ACK, 0, Buffer.alloc(6))], E.FRAME_SIZE_ERROR],
    ["SETTINGS of 5 bytes", () => [settings(), frame(T.SETTINGS, 0, 0, Buffer.alloc(5))], E.FRAME_SIZE_ERROR],
    ["SETTINGS_ENABLE_PUSH of 2", () => [settings([2, 2])], E.PROTOCOL_ERROR],
    ["SETTINGS_INITIAL_WINDOW_SIZE of 2^31", () => [settings([4, 2 ** 31])], E.FLOW_CONTROL_ERROR],
    ["SETTINGS_MAX_FRAME_SIZE of 100", () => [settings([5, 100])], E.PROTOCOL_ERROR],
    ["SETTINGS_MAX_FRAME_SIZE of 2^24", () => [settings([5, 2 ** 24])], E.PROTOCOL_ERROR],
    // 8.4 PUSH_PROMISE
    ["PUSH_PROMISE from a client", () => [settings(), frame(T.PUSH_PROMISE, F.END_HEADERS, 1, u32(2))], E.PROTOCOL_ERROR],
    // 6.7 PING
    ["PING of 7 bytes", () => [settings(), frame(T.PING, 0, 0, Buffer.alloc(7))], E.FRAME_SIZE_ERROR],
    ["PING on stream 1", () => [settings(), frame(T.PING, 0, 1, Buffer.alloc(8))], E.PROTOCOL_ERROR],
    // 6.8 GOAWAY
    ["GOAWAY on stream 1", () => [settings(), frame(T.GOAWAY, 0, 1, Buffer.alloc(8))], E.PROTOCOL_ERROR],
    ["GOAWAY of 4 bytes", () => [settings(), frame(T.GOAWAY, 0, 0, Buffer.alloc(4))], E.FRAME_SIZE_ERROR],
    // 6.9 WINDOW_UPDATE
    ["WINDOW_UPDATE of 3 bytes", () => [settings(), frame(T.WINDOW_UPDATE, 0, 0, Buffer.alloc(3))], E.FRAME_SIZE_ERROR],
    ["WINDOW_UPDATE of 0 on the connection", () => [settings(), windowUpdate(0, 0)], E.PROTOCOL_ERROR],
    ["WINDOW_UPDATE past 2^31-1 on the connection", () => [settings(), windowUpdate(0, 2 ** 31 - 1)], E.FLOW_CONTROL_ERROR],
    ["WINDOW_UPDATE on an idle stream", () => [settings(), windowUpdate(3, 1)], E.PROTOCOL_ERROR],
    [
      "SETTINGS_INITIAL_WINDOW_SIZE that takes an open stream's window past 2^31-1",
      () => {
        const e = enc();
        return [settings(), headers(e, 1, true, "/test.Echo/Idle"), windowUpdate(1, 2 ** 31 - 65_536), settings([4, 65_536])];
      },
      E.FLOW_CONTROL_ERROR,
    ],
    // 6.10 CONTINUATION
    ["CONTINUATION without HEADERS", () => [settings(), frame(T.CONTINUATION, F.END_HEADERS, 1, Buffer.from([0x82]))], E.PROTOCOL_ERROR],
    [
      "a frame other than CONTINUATION inside a header block",
      () => [settings(), frame(T.HEADERS, 0, 1, Buffer.from([0x82])), frame(T.PING, 0, 0, Buffer.alloc(8))],
      E.PROTOCOL_ERROR,
    ],
    [
      "CONTINUATION on another stream",
      () => [settings(), frame(T.HEADERS, 0, 1, Buffer.from([0x82])), frame(T.CONTINUATION, F.END_HEADERS, 3, Buffer.from([0x84]))],
      E.PROTOCOL_ERROR,
    ],
    // RFC 7541: a decoding error is a COMPRESSION_ERROR (RFC 9113 4.3)
    ["a header index outside the tables", () => [settings(), frame(T.HEADERS, F.END_HEADERS, 1, Buffer.from([0xff, 0x7f]))], E.COMPRESSION_ERROR],
    [
      "a dynamic table size update after a header field",
      () => [settings(), frame(T.HEADERS, F.END_HEADERS, 1, Buffer.from([0x82, 0x20]))],
      E.COMPRESSION_ERROR,
    ],
    [
      "a Huffman string ending in EOS",
      () => [settings(), frame(T.HEADERS, F.END_HEADERS, 1, Buffer.from([0x00, 0x84, 0xff, 0xff, 0xff, 0xff, 0x00]))],
      E.COMPRESSION_ERROR,
    ],
    // the CONTINUATION flood: a header block is bounded (docs/design.md)
    [
      "a header block over 64 KiB in CONTINUATION frames",
      () => [settings(), frame(T.HEADERS, 0, 1, Buffer.alloc(16_384)), ...Array.from({ length: 10 }, () => frame(T.CONTINUATION, 0, 1, Buffer.alloc(16_384)))],
      E.ENHANCE_YOUR_CALM,
    ],
    [
      "65 empty CONTINUATION frames",
      () => [settings(), frame(T.HEADERS, 0, 1, Buffer.from([0x82])), ...Array.from({ length: 65 }, () => frame(T.CONTINUATION, 0, 1))],
      E.ENHANCE_YOUR_CALM,
    ],
  ];

  it.each(cases)("%s", async (_, build, code) => {
    const x = await exchange(server.port, [PREFACE, ...build()], { raw: true });
    expect(x.goaway).toBe(code);
  });
});

describe("stream errors: RST_STREAM with the RFC's code, and the connection serves on", () => {
  const cases: [string, (e: Encoder) => Buffer[], number, number][] = [
    [
      "PRIORITY of 4 bytes on a stream in use",
      (e) => [headers(e, 1, true, "/test.Echo/Idle"), frame(T.PRIORITY, 0, 1, Buffer.alloc(4))],
      1,
      E.FRAME_SIZE_ERROR,
    ],
    [
      "a stream depending on itself",
      (e) => [headers(e, 1, true, "/test.Echo/Idle"), frame(T.PRIORITY, 0, 1, Buffer.concat([u32(1), Buffer.from([16])]))],
      1,
      E.PROTOCOL_ERROR,
    ],
    ["WINDOW_UPDATE of 0 on a stream", (e) => [headers(e, 1, true, "/test.Echo/Idle"), windowUpdate(1, 0)], 1, E.PROTOCOL_ERROR],
    ["WINDOW_UPDATE past 2^31-1 on a stream", (e) => [headers(e, 1, true, "/test.Echo/Idle"), windowUpdate(1, 2 ** 31 - 1)], 1, E.FLOW_CONTROL_ERROR],
    ["DATA after END_STREAM (half-closed)", (e) => [headers(e, 1, false, "/test.Echo/Slow"), data(1, grpcBody(Buffer.from("x")))], 1, E.STREAM_CLOSED],
    [
      "HEADERS after END_STREAM (half-closed)",
      (e) => [headers(e, 1, false, "/test.Echo/Slow"), frame(T.HEADERS, F.END_HEADERS | F.END_STREAM, 1, e.block([["x-trailer", "1"]]))],
      1,
      E.STREAM_CLOSED,
    ],
    [
      "trailers without END_STREAM",
      (e) => [headers(e, 1, true, "/test.Echo/Idle"), frame(T.HEADERS, F.END_HEADERS, 1, e.block([["x-trailer", "1"]]))],
      1,
      E.PROTOCOL_ERROR,
    ],
    [
      "a pseudo-header field in trailers",
      (e) => [headers(e, 1, true), frame(T.HEADERS, F.END_HEADERS | F.END_STREAM, 1, e.block([[":path", "/x"]]))],
      1,
      E.PROTOCOL_ERROR,
    ],
    ["an upper-case field name", (e) => [headers(e, 1, false, "/test.Echo/Echo", [["X-Upper", "1"]])], 1, E.PROTOCOL_ERROR],
    ["a connection-specific field", (e) => [headers(e, 1, false, "/test.Echo/Echo", [["connection", "keep-alive"]])], 1, E.PROTOCOL_ERROR],
    ["te other than trailers", (e) => [headers(e, 1, false, "/test.Echo/Echo", [["te", "gzip"]])], 1, E.PROTOCOL_ERROR],
    ["no :path", (e) => [frame(T.HEADERS, F.END_HEADERS | F.END_STREAM, 1, e.block(request().filter(([n]) => n !== ":path")))], 1, E.PROTOCOL_ERROR],
    [
      "a pseudo-header field after a regular one",
      (e) => [frame(T.HEADERS, F.END_HEADERS | F.END_STREAM, 1, e.block([...request().slice(1), [":method", "POST"]]))],
      1,
      E.PROTOCOL_ERROR,
    ],
    [
      "a response pseudo-header field in a request",
      (e) => [frame(T.HEADERS, F.END_HEADERS | F.END_STREAM, 1, e.block([[":status", "200"], ...request()]))],
      1,
      E.PROTOCOL_ERROR,
    ],
    ["a value with a line feed", (e) => [headers(e, 1, false, "/test.Echo/Echo", [["x-a", "a\nb"]])], 1, E.PROTOCOL_ERROR],
    [
      "DATA longer than content-length",
      (e) => [headers(e, 1, true, "/test.Echo/Echo", [["content-length", "2"]]), data(1, grpcBody(Buffer.from("x")))],
      1,
      E.PROTOCOL_ERROR,
    ],
    [
      "DATA shorter than content-length",
      (e) => [headers(e, 1, true, "/test.Echo/Echo", [["content-length", "20"]]), data(1, grpcBody(Buffer.from("x")))],
      1,
      E.PROTOCOL_ERROR,
    ],
  ];

  it.each(cases)("%s", async (_, build, id, code) => {
    const e = enc();
    const x = await exchange(server.port, [...build(e), headers(e, 101), data(101, grpcBody(Buffer.from("after")))]);
    expect(x.goaway).toBeUndefined();
    expect(x.resets.get(id)).toBe(code);
    expect(x.alive).toBe(true);
  });

  it("ignores what the client still sends on a stream the server reset", async () => {
    const e = enc();
    const x = await exchange(server.port, [headers(e, 1, true, "/test.Echo/Echo", [["x-Bad", "1"]]), data(1, Buffer.from("late")), windowUpdate(1, 10)]);
    expect(x.resets.get(1)).toBe(E.PROTOCOL_ERROR);
    expect(x.resets.size).toBe(1);
    expect(x.alive).toBe(true);
  });

  it("answers a request on a lower stream id with a connection error, not silence (the call used to hang)", async () => {
    const e = enc();
    const x = await exchange(server.port, [headers(e, 5, true), headers(e, 3), data(5, grpcBody(Buffer.from("five")))]);
    expect(x.goaway).toBe(E.PROTOCOL_ERROR);
    expect(x.frames.find((f) => f.type === T.GOAWAY)!.payload.readUInt32BE(0)).toBe(5); // last stream id
  });
});

describe("limits on what one connection holds", () => {
  it("answers a header list over SETTINGS_MAX_HEADER_LIST_SIZE with 431, small as its block is", async () => {
    const e = enc();
    // one 4 KB field in the dynamic table, then referenced 20 times: an 80 KB list from a small block
    const big: [string, string] = ["x-big", "b".repeat(4_000)];
    const first = frame(T.HEADERS, F.END_HEADERS | F.END_STREAM, 1, e.block(request("/test.Echo/Echo", [big])));
    const second = e.block(
      request(
        "/test.Echo/Echo",
        Array.from({ length: 20 }, () => big),
      ),
      { incremental: false },
    );
    expect(second.length).toBeLessThan(200);
    const x = await exchange(server.port, [first, frame(T.HEADERS, F.END_HEADERS | F.END_STREAM, 3, second)]);
    expect(fields(x, 3)[":status"]).toBe("431");
    expect(x.alive).toBe(true);
  });

  it("announces its limits in SETTINGS", async () => {
    const x = await exchange(server.port, []);
    const ours = x.frames.find((f) => f.type === T.SETTINGS && !(f.flags & F.ACK))!;
    const values = new Map(Array.from({ length: ours.payload.length / 6 }, (_, i) => [ours.payload.readUInt16BE(6 * i), ours.payload.readUInt32BE(6 * i + 2)]));
    expect(Object.fromEntries(values)).toEqual({ 3: 256, 4: 1 << 24, 6: 64 * 1024 });
  });

  it("enforces the receive window it announced", async () => {
    const small = await startServer({ receiveWindow: 20_000 });
    try {
      const e = enc();
      // 9,999 bytes (not yet half the window, so not given back), then 16,384: past the 20,000
      const x = await exchange(small.port, [headers(e, 1, true), data(1, Buffer.alloc(9_999), false), data(1, Buffer.alloc(16_384), false)]);
      expect(x.resets.get(1)).toBe(E.FLOW_CONTROL_ERROR);
      // within it, the window is given back as data arrives
      const ok = await exchange(small.port, [
        headers(enc(), 1, true),
        ...Array.from({ length: 10 }, () => data(1, Buffer.alloc(9_000), false)),
        data(1, Buffer.alloc(0)),
      ]);
      expect(ok.resets.size).toBe(0);
      expect(ok.frames.filter((f) => f.type === T.WINDOW_UPDATE && f.id === 1).length).toBeGreaterThan(3);
    } finally {
      await small.close();
    }
  });

  it("refuses streams beyond SETTINGS_MAX_CONCURRENT_STREAMS, a reset call still running counted", async () => {
    const small = await startServer({ streams: 2 });
    try {
      const e = enc();
      const rst = (id: number) => frame(T.RST_STREAM, 0, id, u32(8));
      const x = await exchange(small.port, [headers(e, 1, false, "/test.Echo/Slow"), rst(1), headers(e, 3, true, "/test.Echo/Idle"), headers(e, 5)]);
      expect(x.resets.get(5)).toBe(E.REFUSED_STREAM);
      expect(x.alive).toBe(true);
    } finally {
      await small.close();
    }
  });

  it("answers a request over the message limit RESOURCE_EXHAUSTED, and one over the connection's buffer", async () => {
    const small = await startServer({ message: 1_000, buffered: 1_500 });
    try {
      const e = enc();
      const x = await exchange(small.port, [headers(e, 1, true), data(1, grpcBody(Buffer.alloc(1_001)))]);
      expect(fields(x, 1)["grpc-status"]).toBe("8");
      const f = enc();
      const y = await exchange(small.port, [headers(f, 1, true), data(1, Buffer.alloc(900), false), headers(f, 3, true), data(3, Buffer.alloc(900), false)]);
      expect(fields(y, 3)["grpc-status"]).toBe("8");
      expect(y.resets.get(3)).toBe(E.NO_ERROR);
      expect(y.alive).toBe(true);
    } finally {
      await small.close();
    }
  });
});
