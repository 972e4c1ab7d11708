// TypeDoc plugin (typedoc.json "plugin"): names each documented module for the import a user writes
// ("siteops", "siteops/fleet", "siteops/emulator") instead of its source folder ("src", "emulator").
import { Converter } from "typedoc";

const NAMES = { src: "siteops", index: "siteops", fleet: "siteops/fleet", "src/fleet": "siteops/fleet", "src/index": "siteops", emulator: "siteops/emulator" };

export function load(app) {
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const module of context.project.children ?? []) {
      if (Object.hasOwn(NAMES, module.name)) module.name = NAMES[module.name];
    }
  });
}
