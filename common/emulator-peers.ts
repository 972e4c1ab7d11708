// The emulator's optional peer dependencies, listed once, and the one line that says how to install the missing
// ones: `siteops emulator` prints it (cli/commands/emulator/), `startEmulator` from "siteops/emulator" throws it
// (emulator/index.ts). Their ranges are read from the package's package.json, never repeated here.
import { readFileSync } from "node:fs";
import path from "node:path";
import { packageRoot } from "./package-root.js";

/** What the emulator imports beyond the package's own dependency: a user of the client alone installs none. */
const EMULATOR_PEERS = [
  "fastify",
  "@fastify/type-provider-typebox",
  "jose",
  "otplib",
  "typebox",
  // the web console (emulator/console/)
  "@fastify/cookie",
  "@fastify/csrf-protection",
  "@fastify/formbody",
];

/** The package's declared peer ranges (none when its package.json cannot be found). */
function peerRanges(): Record<string, string> {
  let root: string;
  try {
    root = packageRoot();
  } catch {
    return {};
  }
  return (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { peerDependencies?: Record<string, string> }).peerDependencies ?? {};
}

/**
 * `<who>: the emulator needs its optional peer dependencies (missing: ...); install them with: npm i -D ...`, each
 * missing peer at its declared range, or null when every peer resolves with `resolve` (from where the emulator
 * resolves them: the package's own directory).
 */
export function missingPeersMessage(who: string, resolve: (specifier: string) => string = (s) => import.meta.resolve(s)): string | null {
  const missing = EMULATOR_PEERS.filter((name) => {
    try {
      resolve(name);
      return false;
    } catch {
      return true;
    }
  });
  if (!missing.length) return null;
  const ranges = peerRanges();
  const args = missing.map((name) => (ranges[name] ? `${name}@${ranges[name]}` : name)).map((arg) => (/^[\w@^~./-]+$/.test(arg) ? arg : `"${arg}"`));
  return `${who}: the emulator needs its optional peer dependencies (missing: ${missing.join(", ")}); install them with: npm i -D ${args.join(" ")}`;
}
