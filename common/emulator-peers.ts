// The emulator's optional peer dependencies, listed once, and the one line that says how to install the missing
// ones: `siteops emulator` prints it (cli/commands/emulator/), `startEmulator` from "siteops/emulator" throws it
// (emulator/index.ts). Their ranges are read from the package's package.json, never repeated here.
//
// Where to install them depends on where siteops is: Node looks for a package in the node_modules folders above
// the module that imports it, never in the current folder. In a project (`<project>/node_modules/siteops`) that
// is the project's node_modules (`npm i -D`); in a global install (`<prefix>/lib/node_modules/siteops`, no
// package.json above its node_modules) it is the global one, beside siteops (`npm i -g`): peers installed with
// `npm i -D` in some folder are never found by a global siteops (issue 49), and the line says so when it sees them.
import { existsSync, readFileSync } from "node:fs";
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
function peerRanges(root: string | undefined): Record<string, string> {
  if (root === undefined) return {};
  return (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { peerDependencies?: Record<string, string> }).peerDependencies ?? {};
}

/** Whether the package at `root` is a global install: in a node_modules folder that belongs to no project. */
export function isGlobalInstall(root: string): boolean {
  const modules = path.dirname(root);
  return path.basename(modules) === "node_modules" && !existsSync(path.join(path.dirname(modules), "package.json"));
}

/**
 * `<who>: the emulator needs its optional peer dependencies (missing: ...); install them with: npm i -D ...`, each
 * missing peer at its declared range, or null when every peer resolves with `resolve` (from where the emulator
 * resolves them: the package's own directory).
 */
export function missingPeersMessage(
  who: string,
  resolve: (specifier: string) => string = (s) => import.meta.resolve(s),
  root: string | undefined = ownRoot(),
  cwd: string = process.cwd(),
): string | null {
  const missing = EMULATOR_PEERS.filter((name) => {
    try {
      resolve(name);
      return false;
    } catch {
      return true;
    }
  });
  if (!missing.length) return null;
  const ranges = peerRanges(root);
  const args = missing.map((name) => (ranges[name] ? `${name}@${ranges[name]}` : name)).map((arg) => (/^[\w@^~./-]+$/.test(arg) ? arg : `"${arg}"`));
  const line = `${who}: the emulator needs its optional peer dependencies (missing: ${missing.join(", ")})`;
  if (root === undefined || !isGlobalInstall(root)) return `${line}; install them with: npm i -D ${args.join(" ")}`;
  const here = missing.some((name) => existsSync(path.join(cwd, "node_modules", name, "package.json")));
  const where = here ? "; a global siteops loads them from beside itself, never from ./node_modules" : "; siteops is installed globally, so they go beside it";
  return `${line}${where}; install them with: npm i -g ${args.join(" ")}`;
}

/** The package's root, or undefined (a copy of the sources outside any siteops package). */
function ownRoot(): string | undefined {
  try {
    return packageRoot();
  } catch {
    return undefined;
  }
}
