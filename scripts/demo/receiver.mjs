// A local webhook receiver for the demo: collects deliveries so the summary can verify their signatures with
// the secrets Terraform kept. The emulator allows loopback http endpoints; the real service wants https.
import { createServer } from "node:http";

export async function startReceiver() {
  const deliveries = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      deliveries.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(204).end();
    });
  });
  await new Promise((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/siteops-webhooks`,
    deliveries,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
