// The least a Node.js plugin of Terraform's must do before it can serve (for bench/provider-startup.bench.ts):
// with "tls-server", load node:tls, node:net and node:crypto, make a fresh EC key, listen on a unix socket; with
// "tls", only load node:tls; with "node", nothing. Prints its own CPU time (ms, user + system) at that point, the
// same measure as the provider's readyCpuMs (bench/lib/provider-noop.ts), then exits.
"use strict";
const cpuMs = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};
const mode = process.argv[2];
if (mode === "node") process.stdout.write(`${cpuMs()}\n`);
else if (mode === "tls") {
  require("node:tls");
  process.stdout.write(`${cpuMs()}\n`);
} else if (mode === "tls-server") {
  require("node:tls");
  const net = require("node:net");
  const { generateKeyPairSync } = require("node:crypto");
  generateKeyPairSync("ec", { namedCurve: "P-256" });
  const server = net.createServer();
  server.listen(process.argv[3], () => {
    process.stdout.write(`${cpuMs()}\n`);
    server.close();
  });
} else throw new Error(`node-plugin-floor.cjs: unknown mode ${mode}`);
