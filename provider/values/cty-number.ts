// Numbers as cty (Terraform's type system) reads and writes them in msgpack (go-cty's msgpack/marshal.go):
// an integer that fits int64 as the shortest msgpack int, any other number a float64 holds exactly as a
// float64 (infinities included), the rest as decimal text. Here: the strict reading of a number string
// (what Go's big.ParseFloat accepts in base 10) and the choice between the three forms when writing.

/** The form cty writes a number in: int64, float64, or its decimal text. */
export type NumberForm = { int: bigint } | { float: number } | { text: string };

/** Decimal syntax go-cty accepts from a msgpack string (big.ParseFloat, base 10; no hex, no spaces, no "_"). */
const DECIMAL = /^([+-]?)(?:(\d+)(?:\.(\d*))?|\.(\d+))(?:[eE]([+-]?\d+))?$/;
const INFINITY = /^([+-]?)[Ii]nf$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
/** A float64's exact decimal expansion has at most 767 significant digits and 1074 fractional ones. */
const MAX_EXACT_DIGITS = 767;
const MAX_EXACT_FRACTION = 1074;

/**
 * Reads a number string as cty does, and says which form cty writes that number in: undefined when cty
 * refuses it. Only `int` and `float` forms are computed exactly; anything else is `text`, kept as sent.
 */
export function parseNumber(s: string): NumberForm | undefined {
  const inf = INFINITY.exec(s);
  if (inf) return { float: inf[1] === "-" ? -Infinity : Infinity };
  const m = DECIMAL.exec(s);
  if (!m) return undefined;
  const negative = m[1] === "-";
  const whole = m[2] ?? "";
  const fraction = m[3] ?? m[4] ?? "";
  // The value is digits * 10^exponent, digits without leading or trailing zeros.
  let digits = (whole + fraction).replace(/^0+/, "");
  if (digits === "") return { int: 0n };
  const expText = m[5] ?? "0";
  if (expText.replace(/^[+-]?0*/, "").length > 9) return { text: s }; // |exponent| >= 1e9: neither int64 nor float64
  let exponent = Number(expText) - fraction.length;
  const trimmed = digits.replace(/0+$/, "");
  exponent += digits.length - trimmed.length;
  digits = trimmed;
  if (exponent >= 0) {
    if (digits.length + exponent > 19) return { text: s };
    const n = BigInt(digits) * 10n ** BigInt(exponent) * (negative ? -1n : 1n);
    return n >= INT64_MIN && n <= INT64_MAX ? { int: n } : { text: s };
  }
  if (digits.length > MAX_EXACT_DIGITS || -exponent > MAX_EXACT_FRACTION) return { text: s };
  const f = Number(s);
  return Number.isFinite(f) && f !== 0 && exactly(f, BigInt(digits), -exponent) ? { float: f } : { text: s };
}

/** Whether the finite float |f| equals digits / 10^k exactly (k > 0): compared as integers. */
function exactly(f: number, digits: bigint, k: number): boolean {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(f));
  const bits = view.getBigUint64(0);
  const biased = Number(bits >> 52n);
  const fraction = bits & 0xfffffffffffffn;
  // |f| = mantissa * 2^e
  const mantissa = biased === 0 ? fraction : fraction | (1n << 52n);
  const e = (biased === 0 ? 1 : biased) - 1075;
  // digits / 10^k == mantissa * 2^e  <=>  digits * 2^-e == mantissa * 10^k  (e < 0 here: f is no integer)
  return e < 0 ? digits << BigInt(-e) === mantissa * 10n ** BigInt(k) : digits === (mantissa << BigInt(e)) * 10n ** BigInt(k);
}

/**
 * The form cty writes a float64 value in (a number decoded from msgpack as an int or a float): an integer
 * that fits int64 as an int, a float64 integer beyond it as the shortest decimal text that reads back to
 * it (big.Float's Text('f', -1) at float64 precision), anything else as a float64.
 */
export function formOfFloat(v: number): NumberForm {
  if (!Number.isInteger(v)) return { float: v };
  if (v >= -(2 ** 63) && v < 2 ** 63) return { int: BigInt(v) };
  // toExponential() gives the shortest digits that read back to v; 'f' writes them without an exponent.
  const [mantissa, exp] = v.toExponential().split("e") as [string, string];
  const sign = mantissa.startsWith("-") ? "-" : "";
  const digits = mantissa.replace(/^-/, "").replace(".", "");
  return { text: sign + digits.padEnd(Number(exp) + 1, "0") };
}

/**
 * The float64 a provider's code reads for a decimal that no float64 holds exactly, when that float prints
 * as the same decimal (`0.1`); undefined when it would not (more digits than a float64 keeps, out of range).
 * terraform-plugin-framework's Float64 type accepts the same values.
 */
export function nearestFloat(text: string): number | undefined {
  const form = parseNumber(text);
  if (!form) return undefined;
  if ("float" in form) return form.float;
  if ("int" in form) return Number.isSafeInteger(Number(form.int)) ? Number(form.int) : undefined;
  const f = Number(text);
  // (a zero or infinite f: the decimal is out of a float64's range; its text may be long, so not compared)
  return Number.isFinite(f) && f !== 0 && canonical(String(f)) === canonical(text) ? f : undefined;
}

/** Decimal text without a "+" sign, leading zeros or trailing fractional zeros, exponents spelt out. */
function canonical(s: string): string {
  const m = DECIMAL.exec(s)!;
  const whole = m[2] ?? "";
  const all = whole + (m[3] ?? m[4] ?? "");
  const leading = all.length - all.replace(/^0+/, "").length;
  const digits = all.slice(leading).replace(/0+$/, "");
  const point = whole.length - leading + Number(m[5] ?? 0); // digits before the decimal point
  const sign = m[1] === "-" ? "-" : "";
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${digits}`;
  if (point >= digits.length) return sign + digits + "0".repeat(point - digits.length);
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}
