// The line `siteops emulator` prints without its peers: the install command for where this siteops finds them.
// In a project, the project's node_modules (npm i -D); in a global install, beside siteops (npm i -g), with a word
// on ./node_modules when it holds them (a global siteops never loads them from there). test/package/global-install
// runs the printed command after a real global install.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isGlobalInstall, missingPeersMessage } from "../../common/emulator-peers.js";
import { useTempDirs } from "../support/temp.js";

const temp = useTempDirs();
const none = (): string => {
  throw new Error("not found");
};

/** A siteops package at `root` declaring one peer range. */
function siteopsAt(root: string): string {
  mkdirSync(root, { recursive: true });
  writeFileSync(path.join(root, "package.json"), JSON.stringify({ name: "siteops", peerDependencies: { fastify: "^5.6.0", jose: "^6.1.0" } }));
  return root;
}

describe("missingPeersMessage", () => {
  it("is null when every peer resolves", () => {
    expect(missingPeersMessage("siteops emulator", () => "file:///x.js")).toBeNull();
  });

  it("says npm i -D for a siteops in a project (or a clone)", () => {
    const project = temp("peers-project");
    writeFileSync(path.join(project, "package.json"), "{}");
    const root = siteopsAt(path.join(project, "node_modules", "siteops"));
    expect(isGlobalInstall(root)).toBe(false);
    expect(missingPeersMessage("siteops emulator", none, root, project)).toMatch(
      /\); install them with: npm i -D fastify@\^5\.6\.0 @fastify\/type-provider-typebox jose@\^6\.1\.0 /,
    );
    expect(isGlobalInstall(siteopsAt(path.join(temp("peers-clone"), "siteops")))).toBe(false);
  });

  it("says npm i -g for a global siteops, and why ./node_modules does not count when it holds them", () => {
    const prefix = temp("peers-global");
    const root = siteopsAt(path.join(prefix, "lib", "node_modules", "siteops"));
    expect(isGlobalInstall(root)).toBe(true);
    const work = temp("peers-work");
    expect(missingPeersMessage("siteops emulator", none, root, work)).toMatch(
      /; siteops is installed globally, so they go beside it; install them with: npm i -g fastify@\^5\.6\.0 /,
    );
    mkdirSync(path.join(work, "node_modules", "jose"), { recursive: true });
    writeFileSync(path.join(work, "node_modules", "jose", "package.json"), "{}");
    expect(missingPeersMessage("siteops emulator", none, root, work)).toContain(
      "; a global siteops loads them from beside itself, never from ./node_modules; install them with: npm i -g fastify@^5.6.0 ",
    );
  });
});
