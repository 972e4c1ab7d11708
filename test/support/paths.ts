// Where the tests find the repository: its root, the CLI's sources as `node --import tsx` runs them, the tsx loader.
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The repository's root folder. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Node arguments that run the CLI from its sources (no build): `node ...CLI_FROM_SOURCE <command> ...`. */
export const CLI_FROM_SOURCE: readonly string[] = ["--import", "tsx", path.join(ROOT, "cli/main.ts")];

/** tsx's loader as a file URL, for `node --import <it> file.ts` from a folder outside the repository. */
export const TSX_LOADER = pathToFileURL(path.join(ROOT, "node_modules/tsx/dist/loader.mjs")).href;
