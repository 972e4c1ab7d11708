// Receive webhook deliveries and verify their signatures (Standard Webhooks).
//   SITEOPS_WEBHOOK_SECRET=whsec_... npx tsx examples/sdk/webhook-receiver.ts   (listens on :8787)
// Register it: so.webhookEndpoints.create({ url: "http://127.0.0.1:8787/hooks", enabled_events: ["*"] })
// (a loopback receiver: start the emulator with --allow-private-webhooks)
import { createServer } from "node:http";
import { verifyWebhook, WebhookVerificationError } from "../../src/index.js";

const secret = process.env.SITEOPS_WEBHOOK_SECRET;
if (!secret) throw new Error("set SITEOPS_WEBHOOK_SECRET to the endpoint's secret (shown once at creation)");

createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    try {
      // Verify the raw bytes: parsing and re-serialising the JSON would break the signature.
      const event = verifyWebhook({ payload: Buffer.concat(chunks), headers: req.headers, secret });
      console.log(`${event.type}: ${JSON.stringify(event.data).slice(0, 120)}`);
      res.writeHead(204).end();
    } catch (err) {
      if (!(err instanceof WebhookVerificationError)) throw err;
      console.error(`rejected delivery: ${err.message}`);
      res.writeHead(400).end();
    }
  });
}).listen(Number(process.env.PORT ?? 8787), () => console.log("listening on :8787"));
