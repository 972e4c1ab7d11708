import { afterAll, beforeAll, it, vi } from "vitest";
import { startTestEmulator, type TestEmulator } from "./helpers.js";
let env: TestEmulator;
beforeAll(async () => { env = await startTestEmulator({ rateLimit: { limit: 10, windowSeconds: 10 } }); });
afterAll(async () => env.close());
it("debug", async () => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
  const t0 = Date.now();
  const so = env.client({ logger: (e) => console.log(Date.now() - t0, e.kind, (e as any).status ?? "", (e as any).delayMs ?? "") });
  const all = Promise.all(Array.from({ length: 25 }, () => so.me()));
  let fin = false; void all.then(() => fin = true, () => fin = true);
  while (!fin) { await vi.advanceTimersByTimeAsync(100); for (let i = 0; i < 5; i++) await new Promise(r => setImmediate(r)); }
  vi.useRealTimers();
});
