// The server half of go-plugin's AutoMTLS: a fresh self-signed P-256 certificate for "localhost" per
// launch. Terraform pins exactly this certificate (sent in the handshake line) as its only root, so it is
// both the CA and the leaf, like the one go-plugin generates for Go plugins.
import { generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import { bitString, boolean, explicit, octetString, oid, sequence, set, smallInteger, time, tlv, unsignedInteger, utf8String } from "./der.js";

const ECDSA_WITH_SHA256 = "1.2.840.10045.4.3.2";

export interface ServerCertificate {
  /** DER bytes of the certificate. */
  der: Buffer;
  certPem: string;
  keyPem: string;
}

function pem(label: string, der: Uint8Array): string {
  const b64 = Buffer.from(der).toString("base64").replace(/.{64}/g, "$&\n").replace(/\n$/, "");
  return `-----BEGIN ${label}-----\n${b64}\n-----END ${label}-----\n`;
}

function name(commonName: string): Buffer {
  return sequence(set(sequence(oid("2.5.4.10"), utf8String("siteops"))), set(sequence(oid("2.5.4.3"), utf8String(commonName))));
}

function extension(id: string, critical: boolean, value: Uint8Array): Buffer {
  return critical ? sequence(oid(id), boolean(true), octetString(value)) : sequence(oid(id), octetString(value));
}

export function buildCertificate(privateKey: KeyObject, spkiDer: Buffer, now = new Date()): Buffer {
  // 30 s of slack for clock skew between the two processes; go-plugin's own certificates last 30 years.
  const notBefore = new Date(now.getTime() - 30_000);
  const notAfter = new Date(now.getTime() + 30 * 365 * 24 * 3600_000);
  const algorithm = sequence(oid(ECDSA_WITH_SHA256));
  const extensions = sequence(
    // keyUsage: digitalSignature (bit 0) + keyEncipherment (bit 2) + keyCertSign (bit 5) = 1010 0100
    extension("2.5.29.15", true, bitString(Buffer.from([0xa4]), 2)),
    // extKeyUsage: serverAuth, clientAuth
    extension("2.5.29.37", false, sequence(oid("1.3.6.1.5.5.7.3.1"), oid("1.3.6.1.5.5.7.3.2"))),
    // basicConstraints: CA, because Terraform uses this certificate as its trust root
    extension("2.5.29.19", true, sequence(boolean(true))),
    // subjectAltName: dNSName [2] "localhost"
    extension("2.5.29.17", false, sequence(tlv(0x82, Buffer.from("localhost")))),
  );
  const serial = randomBytes(16);
  serial[0]! &= 0x7f; // keep it positive before minimal encoding
  if (serial.every((b) => b === 0)) serial[15] = 1;
  const tbs = sequence(
    explicit(0, smallInteger(2)), // v3
    unsignedInteger(serial),
    algorithm,
    name("localhost"),
    sequence(time(notBefore), time(notAfter)),
    name("localhost"),
    spkiDer,
    explicit(3, extensions),
  );
  const signature = sign("sha256", tbs, { key: privateKey, dsaEncoding: "der" });
  return sequence(tbs, algorithm, bitString(signature));
}

export function generateServerCertificate(): ServerCertificate {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const spki = publicKey.export({ type: "spki", format: "der" });
  const der = buildCertificate(privateKey, spki);
  // PEM forms are computed on first use: only the DER is needed before the handshake line.
  return {
    der,
    get certPem() {
      return pem("CERTIFICATE", der);
    },
    get keyPem() {
      return privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    },
  };
}

/** The handshake's certificate field: raw DER, base64 *without* padding (padding breaks go-plugin's decoder). */
export function handshakeCertificate(der: Uint8Array): string {
  return Buffer.from(der).toString("base64").replace(/=+$/, "");
}
