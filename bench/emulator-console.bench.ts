// The console's site list at fleet size (issue 49 item 7): GET /sites as a signed-in user on a messy fleet made by
// one seed line (generate.spread), at 300 and at 10,000 sites: the first page, the status filter that finds the
// sites needing attention, a search by name, a sort by WordPress version, and the last page of that sort. Medians
// of interleaved rounds over one keep-alive connection, with the page's size; then the search's SQL alone.
// Run: npm run bench -- emulator-console
import { loadavg } from "node:os";
import { median } from "./lib/processes.js";
import { startEmulator, type RunningEmulator } from "../emulator/index.js";

const ROUNDS = 40;
const EMAIL = "ops@agency.test";
const PASSWORD = "ops-password-123";

async function emulatorWith(sites: number): Promise<RunningEmulator> {
  return startEmulator({
    port: 0,
    loginThrottle: null,
    seed: {
      accounts: [{ name: "Agency", users: [{ email: EMAIL, password: PASSWORD, name: "Ops", role: "owner" }] }],
      generate: { sites, spread: { seed: 1 } },
    },
  });
}

/** The console's session cookie, through the sign-in form as a browser sends it. */
async function signIn(emu: RunningEmulator): Promise<string> {
  const form = await fetch(`${emu.url}/sign-in`);
  const cookies = form.headers.getSetCookie().map((c) => c.split(";")[0]);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1]!;
  const res = await fetch(`${emu.url}/sign-in`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookies.join("; ") },
    body: new URLSearchParams({ email: EMAIL, password: PASSWORD, _csrf: csrf }),
  });
  if (res.status !== 303) throw new Error(`sign-in: ${res.status}`);
  return [...cookies, ...res.headers.getSetCookie().map((c) => c.split(";")[0])].join("; ");
}

const VIEWS: [string, (pages: number) => string][] = [
  ["first page", () => "/sites"],
  ["needs attention", () => "/sites?status=degraded%2Cdown"],
  ["search 'site-0004'", () => "/sites?q=site-0004"],
  ["sort by WordPress", () => "/sites?sort=wp_version"],
  ["last page, WordPress desc", (pages) => `/sites?sort=wp_version&dir=desc&page=${pages}`],
];

console.log(
  `machine load (1/5/15 min): ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" / ")}\n`,
);
console.log("| sites | view | median ms | p90 ms | rows | page kB |\n|---|---|---|---|---|---|");
for (const size of [300, 10_000]) {
  const emu = await emulatorWith(size);
  try {
    const cookie = await signIn(emu);
    const pages = Math.ceil(size / 100);
    const times = VIEWS.map(() => [] as number[]);
    const shape = VIEWS.map(() => ({ rows: 0, bytes: 0 }));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, [, path]] of VIEWS.entries()) {
        const t = performance.now();
        const res = await fetch(`${emu.url}${path(pages)}`, { headers: { cookie } });
        const text = await res.text();
        times[i]!.push(performance.now() - t);
        if (res.status !== 200) throw new Error(`${path(pages)}: ${res.status}`);
        shape[i] = { rows: (text.match(/<tr><td>/g) ?? []).length, bytes: text.length };
      }
    }
    for (const [i, [name]] of VIEWS.entries()) {
      const sorted = [...times[i]!].sort((a, b) => a - b);
      console.log(
        `| ${size} | ${name} | ${median(times[i]!).toFixed(1)} | ${sorted[Math.floor(sorted.length * 0.9)]!.toFixed(1)} | ${shape[i]!.rows} | ${(shape[i]!.bytes / 1024).toFixed(0)} |`,
      );
    }
  } finally {
    await emu.close();
  }
}
