// Entry point of the provider executable (bundled by scripts/build-provider.mjs): serve until Terraform's
// go-plugin client sends Shutdown.
import { ProviderServer } from "./framework/provider-server.js";
import { servePlugin } from "./protocol/plugin-server.js";
import { siteopsProvider } from "./provider.js";

servePlugin(new ProviderServer(siteopsProvider()) as ProviderServer<unknown>).catch((err: unknown) => {
  process.stderr.write(`siteops provider: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
