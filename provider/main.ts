// Entry point of the provider executable (bundled by scripts/build-provider.mjs): serve until Terraform's
// go-plugin client sends Shutdown.
import { ProviderServer } from "./framework/provider-server.js";
import { servePlugin } from "./protocol/plugin-server.js";
import { siteopsProvider } from "./provider.js";

await servePlugin(new ProviderServer(siteopsProvider()) as ProviderServer<unknown>);
