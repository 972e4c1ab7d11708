// Issue 38 item 6: a seed's 2FA secret that the TOTP library cannot decode (stray bits in the last character,
// a length base32 cannot end on, excess padding) is refused when the seed loads, naming the field, instead of
// loading and then answering 401 to every correct code. A secret that decodes cleanly still signs in.
import { generate } from "otplib";
import { describe, expect, it } from "vitest";
import { startEmulator } from "../../emulator/index.js";
import { PASSWORD, api, standardSeed, startTestEmulator } from "../emulator/helpers.js";

/** The standard seed with its 2FA user's secret replaced; the user's email and field path. */
function seedWith(secret: string) {
  const seed = standardSeed();
  const users = seed.accounts[0]!.users;
  const user = users.find((u) => u.otp_secret)!;
  user.otp_secret = secret;
  return { seed, email: user.email, path: `accounts[0].users[${users.indexOf(user)}].otp_secret` };
}

describe("a seed's otp_secret", () => {
  const refused: [string, string, RegExp][] = [
    ["26 characters whose last sets bits past 16 bytes", "JBSWY3DPEHPK3PXPJBSWY3DPEH", /its last character sets bits past the end of the secret/],
    ["36 characters whose last sets stray bits", "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXPJBSW", /its last character sets bits past the end of the secret/],
    ["32 characters and 4 = of padding", "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP====", /its length is not one base32 can end on/],
    ["27 characters (a length base32 never ends on)", "JBSWY3DPEHPK3PXPJBSWY3DPEHP", /its length is not one base32 can end on/],
  ];
  for (const [what, secret, reason] of refused) {
    it(`of ${what} is refused when the seed loads, with the field's path`, async () => {
      const { seed, path } = seedWith(secret);
      const message = await startEmulator({ port: 0, host: "127.0.0.1", seed }).then(
        () => "loaded",
        (err: Error) => err.message,
      );
      expect(message).toContain(`seed: ${path} is base32 the 2FA library cannot decode: `);
      expect(message).toMatch(reason);
      // The library's own message quotes the stray bits (a piece of the secret): never repeated.
      expect(message).not.toMatch(/padding: \d|Invalid Base32/);
    });
  }

  it("that decodes cleanly (26 characters, last bits zero; lower case) loads, and its RFC 6238 code signs in", async () => {
    for (const secret of ["JBSWY3DPEHPK3PXPJBSWY3DPEE", "jbswy3dpehpk3pxpjbswy3dpehpk3pxp"]) {
      const { seed, email } = seedWith(secret);
      const emu = await startTestEmulator({ seed });
      try {
        const code = await generate({ secret, epoch: Math.floor(emu.context.clock.nowMs() / 1000) });
        const res = await api(emu, "POST", "/jwt", { body: { email, password: PASSWORD, otp_attempt: code } });
        expect([secret, res.status]).toEqual([secret, 200]);
      } finally {
        await emu.close();
      }
    }
  });
});
