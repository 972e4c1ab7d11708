// The provider's DER writer and AutoMTLS certificate against references: each DER piece compared byte for
// byte with asn1js' encoding of the same value and read back by asn1js; certificates made at generated
// times (GeneralizedTime before 1950 and from 2050 included) parsed by node's X509Certificate and by
// @peculiar/x509, verified by both, and re-encoded by asn1js to the same bytes. Issue 53.
import { generateKeyPairSync, X509Certificate } from "node:crypto";
import "./reflect-metadata.js"; // before @peculiar/x509, whose tsyringe needs it
import * as x509 from "@peculiar/x509";
import * as asn1js from "asn1js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildCertificate } from "../../../provider/protocol/certificate.js";
import { bitString, boolean, oid, sequence, time, unsignedInteger, utf8String } from "../../../provider/protocol/der.js";
import { runs, TIMEOUT } from "./settings.js";

x509.cryptoProvider.set(globalThis.crypto);
const hex = (b: ArrayBuffer | Uint8Array) => Buffer.from(b instanceof ArrayBuffer ? new Uint8Array(b) : b).toString("hex");

/** Parses one DER value with asn1js, refusing trailing bytes. */
function parse(der: Uint8Array): asn1js.AsnType {
  const { offset, result } = asn1js.fromBER(der);
  expect(offset).toBe(der.length);
  expect(result.error ?? "").toBe("");
  return result;
}

/** Sub-identifiers are safe integers in the writer (it is given constants), 40 * a + b included. */
const arc = fc.oneof(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 2 ** 32 }), fc.maxSafeNat());
const dotted = fc
  .tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 39 }), arc, fc.array(arc, { maxLength: 8 }))
  .map(([a, b, big, rest]) => [a, a === 2 ? Math.min(big, Number.MAX_SAFE_INTEGER - 80) : b, ...rest].join("."));
/** Whole seconds from year 0 to 9999 (DER times carry no fraction here). */
const instant = fc.integer({ min: Date.UTC(0, 0, 1), max: Date.UTC(9999, 11, 31, 23, 59, 59) }).map((ms) => new Date(Math.floor(ms / 1000) * 1000));

describe("DER pieces against asn1js", () => {
  it(
    "OIDs, times, integers, strings and bit strings: asn1js' bytes, read back to the value",
    () => {
      fc.assert(
        fc.property(
          dotted,
          instant,
          fc.uint8Array({ maxLength: 40 }),
          fc.string({ unit: "grapheme", maxLength: 300 }),
          fc.uint8Array({ maxLength: 300 }),
          (id, at, magnitude, text, bits) => {
            const o = oid(id);
            expect(hex(o)).toBe(hex(new asn1js.ObjectIdentifier({ value: id }).toBER()));
            expect((parse(o) as asn1js.ObjectIdentifier).getValue()).toBe(id);

            const t = time(at);
            const year = at.getUTCFullYear();
            const Reference = year >= 1950 && year < 2050 ? asn1js.UTCTime : asn1js.GeneralizedTime;
            expect(hex(t)).toBe(hex(new Reference({ valueDate: at }).toBER()));
            // asn1js reads years below 100 as 19xx (Date.UTC's rule), so those are compared as bytes only
            if (year >= 100) expect((parse(t) as asn1js.UTCTime).toDate().getTime()).toBe(at.getTime());

            // minimal and positive: asn1js' unsigned form of the same magnitude
            const n = unsignedInteger(magnitude);
            const value = BigInt(`0x${hex(magnitude) || "0"}`);
            expect(hex(n)).toBe(hex(asn1js.Integer.fromBigInt(value).toBER()));
            expect((parse(n) as asn1js.Integer).toBigInt()).toBe(value);

            const s = utf8String(text);
            expect(hex(s)).toBe(hex(new asn1js.Utf8String({ value: text }).toBER()));
            expect((parse(s) as asn1js.Utf8String).getValue()).toBe(text);

            const b = bitString(bits);
            expect(hex(b)).toBe(hex(new asn1js.BitString({ valueHex: bits }).toBER()));
            const nested = sequence(o, t, n, s, b, boolean(bits.length % 2 === 0));
            expect(hex(Buffer.from(parse(nested).toBER()))).toBe(hex(nested));
          },
        ),
        runs(800),
      );
    },
    TIMEOUT,
  );
});

describe("the AutoMTLS certificate against node's X509Certificate, @peculiar/x509 and asn1js", () => {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const spki = publicKey.export({ type: "spki", format: "der" });
  /** Launch times whose validity (30 years) ends by 9999. */
  const launch = fc.oneof(
    fc.integer({ min: Date.UTC(1900, 0, 1), max: Date.UTC(9968, 0, 1) }),
    fc.integer({ min: Date.UTC(1949, 11, 31), max: Date.UTC(1950, 0, 2) }),
    fc.integer({ min: Date.UTC(2019, 11, 31), max: Date.UTC(2020, 0, 2) }), // notAfter crosses 2050
    fc.constant(Date.now()),
  );

  it(
    "parses, verifies and re-encodes byte for byte, with the validity asked for",
    async () => {
      await fc.assert(
        fc.asyncProperty(launch, async (ms) => {
          const now = new Date(ms);
          const der = buildCertificate(privateKey, spki, now);
          const notBefore = Math.floor((ms - 30_000) / 1000) * 1000;
          const notAfter = Math.floor((ms + 30 * 365 * 24 * 3600_000) / 1000) * 1000;

          const node = new X509Certificate(der);
          expect(node.verify(node.publicKey)).toBe(true);
          expect(node.ca).toBe(true);
          expect(node.subjectAltName).toBe("DNS:localhost");
          expect(node.validFromDate.getTime()).toBe(notBefore);
          expect(node.validToDate.getTime()).toBe(notAfter);

          const peculiar = new x509.X509Certificate(der);
          expect(await peculiar.verify({ signatureOnly: true })).toBe(true);
          expect(peculiar.notBefore.getTime()).toBe(notBefore);
          expect(peculiar.notAfter.getTime()).toBe(notAfter);
          expect(peculiar.subject).toBe("O=siteops, CN=localhost");
          expect(peculiar.getExtension(x509.BasicConstraintsExtension)?.ca).toBe(true);
          expect(peculiar.getExtension(x509.KeyUsagesExtension)?.usages).toBe(
            x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment | x509.KeyUsageFlags.keyCertSign,
          );
          expect(peculiar.getExtension(x509.ExtendedKeyUsageExtension)?.usages).toEqual(["1.3.6.1.5.5.7.3.1", "1.3.6.1.5.5.7.3.2"]);
          expect(peculiar.getExtension(x509.SubjectAlternativeNameExtension)?.names.toJSON()).toEqual([{ type: "dns", value: "localhost" }]);

          expect(hex(Buffer.from(parse(der).toBER()))).toBe(hex(der));
          expect(Buffer.from(peculiar.rawData).equals(der)).toBe(true);
        }),
        runs(150),
      );
    },
    TIMEOUT,
  );
});
