// The top-level commands of `siteops`, each loaded only when used (`siteops emulator` does not pay for the
// API commands, and `siteops sites list` not for the emulator), with the other names they answer to.

import type { Command } from "./command.js";
import type { DefinedCommand } from "./runner.js";

export interface Entry {
  name: string;
  aliases: readonly string[];
  load(): Promise<Command | DefinedCommand>;
}

export const COMMANDS: readonly Entry[] = [
  { name: "auth", aliases: [], load: async () => (await import("./commands/auth.js")).default },
  { name: "sites", aliases: ["site"], load: async () => (await import("./commands/sites.js")).default },
  { name: "snapshots", aliases: ["snapshot"], load: async () => (await import("./commands/snapshots.js")).default },
  { name: "upgrade", aliases: [], load: async () => (await import("./commands/upgrade.js")).default },
  { name: "pipelines", aliases: ["pipeline"], load: async () => (await import("./commands/pipelines.js")).default },
  { name: "vulns", aliases: ["vuln", "vulnerabilities"], load: async () => (await import("./commands/vulns.js")).default },
  { name: "activity", aliases: [], load: async () => (await import("./commands/activity.js")).default },
  { name: "webhooks", aliases: ["webhook"], load: async () => (await import("./commands/webhooks.js")).default },
  { name: "me", aliases: [], load: async () => (await import("./commands/account.js")).me },
  { name: "accounts", aliases: ["account"], load: async () => (await import("./commands/account.js")).accounts },
  { name: "users", aliases: ["user"], load: async () => (await import("./commands/account.js")).users },
  { name: "emulator", aliases: [], load: async () => (await import("./commands/emulator.js")).default },
  { name: "provider", aliases: [], load: async () => (await import("./commands/provider.js")).default },
];

export function findCommand(name: string): Entry | undefined {
  return COMMANDS.find((c) => c.name === name || c.aliases.includes(name));
}
