// An in-process emulator seeded with one account, one owner token and `sites` sites named "Site 1"...: what
// the CLI benchmarks run against.
import { startEmulator } from "../../emulator/index.js";

export async function seededEmulator(token: string, sites: number, stepSeconds: number): Promise<Awaited<ReturnType<typeof startEmulator>>> {
  return startEmulator({
    port: 0,
    stepSeconds,
    seed: {
      accounts: [
        {
          name: "Bench",
          users: [{ email: "bench@example.com", password: "bench-password", name: "Bench", role: "owner" }],
          api_tokens: [{ token, user_email: "bench@example.com" }],
          sites: Array.from({ length: sites }, (_, i) => ({ name: `Site ${i + 1}`, url: `https://site-${i + 1}.example.com` })),
        },
      ],
    },
  });
}
