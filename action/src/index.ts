// Entry point of the bundled action (dist/index.js): everything happens in run().
import { run } from "./main.js";

await run();
