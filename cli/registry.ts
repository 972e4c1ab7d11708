// The top-level commands of `siteops`, each loaded only when used (`siteops emulator` does not pay for the
// API commands, and `siteops sites list` not for the emulator), with the other names they answer to.

import type { Command } from "./command.js";

export interface Entry {
  name: string;
  aliases: readonly string[];
  load(host?: Host): Promise<Command>;
}

/** What the installed entry point (bin/siteops.js) provides: the commands that are not in the CLI bundle
 * (emulator, provider: dist/cli/emulator.mjs and provider.mjs, with their own dependencies), imported from its own module rather
 * than from the bundle, which it may run from V8's code cache where import() is not available. */
export interface Host {
  importCommand(name: "emulator" | "provider"): Promise<{ default: Command }>;
}

async function separate(name: "emulator" | "provider", host: Host | undefined): Promise<Command> {
  if (host) return (await host.importCommand(name)).default;
  return (await (name === "emulator" ? import("./commands/emulator/index.js") : import("./commands/provider/index.js"))).default;
}

export const COMMANDS: readonly Entry[] = [
  { name: "auth", aliases: [], load: async () => (await import("./commands/auth/index.js")).default },
  { name: "sites", aliases: ["site"], load: async () => (await import("./commands/sites/index.js")).default },
  { name: "snapshots", aliases: ["snapshot"], load: async () => (await import("./commands/snapshots/index.js")).default },
  { name: "upgrade", aliases: [], load: async () => (await import("./commands/upgrade/index.js")).default },
  { name: "pipelines", aliases: ["pipeline"], load: async () => (await import("./commands/pipelines/index.js")).default },
  { name: "vulns", aliases: ["vuln", "vulnerabilities"], load: async () => (await import("./commands/vulns/index.js")).default },
  { name: "activity", aliases: [], load: async () => (await import("./commands/activity/index.js")).default },
  { name: "webhooks", aliases: ["webhook"], load: async () => (await import("./commands/webhooks/index.js")).default },
  { name: "export", aliases: [], load: async () => (await import("./commands/export/index.js")).default },
  { name: "me", aliases: [], load: async () => (await import("./commands/account/index.js")).me },
  { name: "accounts", aliases: ["account"], load: async () => (await import("./commands/account/index.js")).accounts },
  { name: "users", aliases: ["user"], load: async () => (await import("./commands/account/index.js")).users },
  { name: "emulator", aliases: [], load: (host) => separate("emulator", host) },
  { name: "provider", aliases: [], load: (host) => separate("provider", host) },
  { name: "visual", aliases: [], load: async () => (await import("./commands/visual/index.js")).default },
];

export function findCommand(name: string): Entry | undefined {
  return COMMANDS.find((c) => c.name === name || c.aliases.includes(name));
}
