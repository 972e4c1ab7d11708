#!/usr/bin/env node
// `npm run demo`: start the emulator on the embedded default (SQLite in a temp dir) with demo data,
// print the credentials and a few commands to try, and keep it running until Ctrl-C.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import path from "node:path";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dir = mkdtempSync(path.join(tmpdir(), "siteops-demo-"));
const port = process.env.SITEOPS_DEMO_PORT ?? "4747";

const child = spawn(
  process.execPath,
  ["--import", "tsx", path.join(root, "src/cli/main.ts"), "emulator", "--demo", "--port", port,
   "--db", path.join(dir, "siteops.db"), "--data-dir", path.join(dir, "data")],
  { cwd: root, stdio: ["ignore", "pipe", "inherit"] },
);

const cleanup = () => rmSync(dir, { recursive: true, force: true });
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code, signal) => {
  cleanup();
  process.exit(signal ? 0 : (code ?? 1));
});

const lines = createInterface({ input: child.stdout });
lines.once("line", (line) => {
  let info;
  try {
    info = JSON.parse(line);
  } catch {
    console.error(`demo: the emulator printed an unexpected first line: ${line}`);
    child.kill();
    return;
  }
  const { url, demo } = info;
  const auth = `-H "Authorization: token ${demo.api_token}"`;
  console.log(`
siteops emulator is running at ${url} with demo data (SQLite in ${dir}).

  account   ${demo.account_id}
  login     ${demo.email} / ${demo.password}
  API token ${demo.api_token}

Try:
  curl -s ${auth} ${url}/api/v1/sites
  curl -s ${auth} ${url}/api/v1/me
  curl -s -X POST ${auth} -H "Content-Type: application/json" \\
       -d '{"name":"Blog","url":"https://blog.example.com"}' ${url}/api/v1/sites
  curl -s -X POST -H "Content-Type: application/json" \\
       -d '{"email":"${demo.email}","password":"${demo.password}"}' ${url}/api/v1/jwt
  curl -s ${url}/openapi.json

  export SITEOPS_BASE_URL=${url} SITEOPS_API_TOKEN=${demo.api_token}

Press Ctrl-C to stop (the demo database is removed).`);
  lines.on("line", (l) => console.log(l));
});
