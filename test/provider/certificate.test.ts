// The AutoMTLS server certificate and the DER pieces it is built from.
import { X509Certificate } from "node:crypto";
import { describe, expect, it } from "vitest";
import { oid, time, unsignedInteger } from "../../provider/protocol/der.js";
import { generateServerCertificate, handshakeCertificate } from "../../provider/protocol/certificate.js";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

describe("DER", () => {
  it("INTEGERs are positive and minimally encoded", () => {
    expect(hex(unsignedInteger(Uint8Array.of(0x7f)))).toBe("02017f");
    expect(hex(unsignedInteger(Uint8Array.of(0x80)))).toBe("02020080"); // 0x00 only to keep it positive
    expect(hex(unsignedInteger(Uint8Array.of(0x00, 0x00, 0x01)))).toBe("020101"); // leading zeros dropped
    expect(hex(unsignedInteger(Uint8Array.of(0x00, 0x00, 0x80)))).toBe("02020080");
    expect(hex(unsignedInteger(Uint8Array.of(0, 0)))).toBe("020100");
  });

  it("OIDs and times", () => {
    expect(hex(oid("1.2.840.10045.4.3.2"))).toBe("06082a8648ce3d040302");
    expect(
      Buffer.from(time(new Date("2026-01-02T03:04:05Z")))
        .toString("latin1")
        .slice(2),
    ).toBe("260102030405Z");
    expect(time(new Date("2056-01-02T03:04:05Z"))[0]).toBe(0x18); // GeneralizedTime from 2050
  });

  it("OIDs whose first sub-identifier is 128 or more, and times before 1950 (issue 53)", () => {
    // 2.999.3 (X.690's example): 40 * 2 + 999 = 1079 takes two bytes
    expect(hex(oid("2.999.3"))).toBe("0603883703");
    expect(hex(oid("2.48"))).toBe("06028100"); // 128
    expect(hex(oid("2.47"))).toBe("06017f");
    expect(Buffer.from(time(new Date("1949-12-31T23:59:59Z"))).toString("latin1")).toBe("\x18\x0f19491231235959Z");
    expect(Buffer.from(time(new Date("1950-01-01T00:00:00Z"))).toString("latin1")).toBe("\x17\x0d500101000000Z");
    expect(Buffer.from(time(new Date("2049-12-31T23:59:59Z"))).toString("latin1")).toBe("\x17\x0d491231235959Z");
    expect(Buffer.from(time(new Date("2050-01-01T00:00:00Z"))).toString("latin1")).toBe("\x18\x0f20500101000000Z");
  });
});

describe("server certificate", () => {
  it("is a P-256 self-signed CA for localhost with server and client auth, valid now", () => {
    const c = generateServerCertificate();
    const x = new X509Certificate(c.der);
    expect(x.verify(x.publicKey)).toBe(true);
    expect(x.ca).toBe(true);
    expect(x.subjectAltName).toBe("DNS:localhost");
    expect(x.keyUsage).toEqual(expect.arrayContaining(["1.3.6.1.5.5.7.3.1", "1.3.6.1.5.5.7.3.2"]));
    expect(x.publicKey.asymmetricKeyDetails?.namedCurve).toBe("prime256v1");
    expect(new Date(x.validFrom).getTime()).toBeLessThanOrEqual(Date.now());
    expect(new Date(x.validTo).getTime()).toBeGreaterThan(Date.now() + 365 * 24 * 3600_000);
    expect(c.keyPem).toContain("BEGIN PRIVATE KEY");
  });

  it("serials are always positive and minimal (checked over many certificates)", () => {
    for (let i = 0; i < 300; i++) {
      const der = generateServerCertificate().der;
      // TBSCertificate: SEQUENCE { [0] { INTEGER 2 }, INTEGER serial, ... }; find the serial after "a0 03 02 01 02".
      const at = der.indexOf(Buffer.from("a003020102", "hex")) + 5;
      expect(der[at]).toBe(0x02);
      const len = der[at + 1]!;
      const first = der[at + 2]!;
      expect(first & 0x80).toBe(0); // positive
      if (first === 0) expect(der[at + 3]! & 0x80).toBe(0x80); // a leading 0x00 only when needed
      expect(len).toBeLessThanOrEqual(17);
    }
  });

  it("goes into the handshake line as unpadded base64", () => {
    const der = Buffer.from([1, 2, 3, 4]);
    expect(handshakeCertificate(der)).toBe("AQIDBA");
    expect(Buffer.from(handshakeCertificate(der), "base64")).toEqual(der);
  });
});
