// Preloaded with `NODE_OPTIONS=--require <this file>` by the provider benchmark (BENCH_PROFILE=1): Node 20
// refuses --cpu-prof in NODE_OPTIONS, and the provider and the emulator are started by others (terraform,
// the emulator helper). Profiles the whole process through the inspector and writes
// $SITEOPS_CPU_PROFILE_DIR/<pid>.cpuprofile when it exits (the inspector answers synchronously in-process).
"use strict";
const inspector = require("node:inspector");
const { writeFileSync } = require("node:fs");
const { join } = require("node:path");

const dir = process.env.SITEOPS_CPU_PROFILE_DIR;
if (dir) {
  const session = new inspector.Session();
  session.connect();
  session.post("Profiler.enable");
  session.post("Profiler.setSamplingInterval", { interval: 500 });
  session.post("Profiler.start");
  process.on("exit", () => {
    session.post("Profiler.stop", (err, result) => {
      if (!err) writeFileSync(join(dir, `${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
