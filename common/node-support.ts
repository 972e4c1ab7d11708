// The oldest Node.js siteops runs on (package.json "engines"; README, "Node.js versions") and the one line that
// the CLI, the Terraform provider and the emulator print when started on an older one, instead of failing later
// on whatever that Node lacks (node:sqlite, for the emulator).

/** 22.13: the first 22.x with node:sqlite unflagged, which the emulator's store is built on. */
export const MIN_NODE = "22.13.0";

/** null on a supported Node; otherwise one sentence naming the Node that `program` needs and how to get it. */
export function unsupportedNode(program: string, version: string = process.versions.node): string | null {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  const [minMajor = 0, minMinor = 0] = MIN_NODE.split(".").map(Number);
  if (major > minMajor || (major === minMajor && minor >= minMinor)) return null;
  return `${program} needs Node.js ${MIN_NODE} or later (22 from 22.13, 24 or 26); this is Node.js ${version}: install Node.js 24 LTS (https://nodejs.org, or \`nvm install 24\`) and run it again`;
}
