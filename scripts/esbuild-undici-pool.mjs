// An esbuild plugin shared by the provider and action bundles. The API core imports only `Pool` from undici,
// but undici's entry loads all of undici (fetch, WebSocket, caches, mocks): about half a bundle's start-up.
// The core's `import { Pool } from "undici"` gets the Pool module and its request() alone: the same class,
// set up as undici's index.js sets it up (the request/stream/... methods live on Dispatcher.prototype; the
// core calls only request(), and close(), which Pool has itself). `namespace` names the bundle's virtual
// module, so each bundle's bytes stay as they were.
export function undiciPoolOnly(namespace) {
  return {
    name: `${namespace}-undici-pool-only`,
    setup(build) {
      build.onResolve({ filter: /^undici$/ }, (args) =>
        /[\\/]node_modules[\\/]/.test(args.importer) ? undefined : { path: "undici-pool", namespace },
      );
      build.onLoad({ filter: /^undici-pool$/, namespace }, () => ({
        contents: [
          'import Pool from "undici/lib/dispatcher/pool.js";',
          'import Dispatcher from "undici/lib/dispatcher/dispatcher.js";',
          'import request from "undici/lib/api/api-request.js";',
          "Object.assign(Dispatcher.prototype, { request });",
          "export { Pool };",
        ].join("\n"),
        resolveDir: build.initialOptions.absWorkingDir,
        loader: "js",
      }));
    },
  };
}
