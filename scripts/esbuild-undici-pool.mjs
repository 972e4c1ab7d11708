// An esbuild plugin shared by the provider and action bundles: undici as the API core uses it, and only that,
// so that a bundle starts fast (the GitHub Action's cold start is a benchmark target).
//
// - The core uses only `Pool` from undici, but undici's entry loads all of undici (fetch, WebSocket,
//   caches, mocks): about half a bundle's start-up. The core's `import("undici")` (src/internal/undici-wire.ts,
//   at a client's first request: esbuild keeps the module in the bundle, evaluated only then, so a client on
//   node:http never runs it) gets the Pool module and its request() alone: the same class, set up as undici's
//   index.js sets it up (the request/stream/... methods live on Dispatcher.prototype; the core calls only
//   request(), and close(), which Pool has itself).
// - The HTTP/1 client requires undici's fetch Body (with WebIDL, FormData, MIME sniffing: ~40 KiB V8 must
//   scan at every start) for one case, a FormData request body, which the core never sends; the HTTP/2
//   client (and node:http2 with node:tls) is only reached when a Pool is made with allowH2, which the core
//   never does. In these bundles both cases are an error that says so.
// - undici calls node:assert as `assert(value)` on internal invariants; loading node:assert also sets up
//   process.stderr (for colours). A ten-line assert of the same behaviour stands in; the build fails if
//   undici starts using anything else of node:assert.
// - undici reads node:http's maxHeaderSize and IncomingMessage when it loads (~4 ms: node:http loads its
//   client and server); here it reads them when it needs them: maxHeaderSize when a client is made without
//   one (the core gives its own), IncomingMessage when a stream is destroyed.
// - The HTTP/1 client reads two tables (ERROR, TYPE) of llhttp's constants module, which builds some thirty
//   (character classes, method and status maps) when it loads: ~2 ms. It gets those two, taken from that
//   module at build time; the build fails if the client starts reading another.
// Every rewrite is checked: when an undici upgrade changes the code it rewrites, the build fails and says where.
// `namespace` names the bundle's virtual modules.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";

const ASSERT_SHIM = `
class AssertionError extends Error {
  constructor(message) { super(message ?? "undici: internal assertion failed"); this.name = "AssertionError"; this.code = "ERR_ASSERTION"; }
}
function assert(value, message) {
  if (!value) throw message instanceof Error ? message : new AssertionError(message);
}
assert.ok = assert;
assert.AssertionError = AssertionError;
module.exports = assert;
`;

/** Source rewrites of undici files, by the file's path under lib/: [exact text, replacement]. */
const REWRITES = {
  "core/util.js": [
    ["const { IncomingMessage } = require('node:http')\n", ""],
    ["constructor === IncomingMessage)", "constructor === require('node:http').IncomingMessage)"],
  ],
  "dispatcher/client.js": [
    ["const http = require('node:http')\n", ""],
    [
      `const getDefaultNodeMaxHeaderSize = http &&
  http.maxHeaderSize &&
  Number.isInteger(http.maxHeaderSize) &&
  http.maxHeaderSize > 0
  ? () => http.maxHeaderSize
  : () => { throw new InvalidArgumentError('http module not available or http.maxHeaderSize invalid') }`,
      `const getDefaultNodeMaxHeaderSize = () => {
  const { maxHeaderSize } = require('node:http')
  if (Number.isInteger(maxHeaderSize) && maxHeaderSize > 0) return maxHeaderSize
  throw new InvalidArgumentError('http module not available or http.maxHeaderSize invalid')
}`,
    ],
  ],
};

export function undiciPoolOnly(namespace) {
  return {
    name: `${namespace}-undici-pool-only`,
    setup(build) {
      // The undici the core depends on (other packages' own copies are left as they are).
      const root = build.initialOptions.absWorkingDir;
      const lib = path.join(path.dirname(createRequire(path.join(root, "package.json")).resolve("undici/package.json")), "lib") + path.sep;
      const isUndici = (file) => file.startsWith(lib) && file.endsWith(".js");
      const virtual = (name, contents) => {
        build.onLoad({ filter: new RegExp(`^${name}$`), namespace }, () => ({ contents, resolveDir: root, loader: "js" }));
        return { path: name, namespace };
      };
      const pool = virtual(
        "undici-pool",
        [
          'import Pool from "undici/lib/dispatcher/pool.js";',
          'import Dispatcher from "undici/lib/dispatcher/dispatcher.js";',
          'import request from "undici/lib/api/api-request.js";',
          "Object.assign(Dispatcher.prototype, { request });",
          "export { Pool };",
        ].join("\n"),
      );
      const notSupported = (what) =>
        `const { NotSupportedError } = require("undici/lib/core/errors.js");\n` +
        `const fail = () => { throw new NotSupportedError(${JSON.stringify(`${what} is not supported by the siteops bundle's HTTP client`)}); };\n`;
      // extractBody runs inside the request writer, where a throw would be uncaught: the body it returns fails
      // instead, before anything is written, and the request rejects with that error.
      const noFormData = virtual(
        "no-formdata-body",
        notSupported("a FormData request body") +
          'module.exports = { extractBody: () => [{ stream: (async function* () { fail(); })(), length: null }, "multipart/form-data"] };',
      );
      const noH2 = virtual("no-http2-client", notSupported("HTTP/2 (allowH2)") + "module.exports = async () => fail();");
      const assertShim = virtual("undici-assert", ASSERT_SHIM);
      const llhttp = createRequire(path.join(lib, "llhttp", "constants.js"))("./constants.js");
      const LLHTTP_TABLES = ["ERROR", "TYPE"];
      const llhttpTables = virtual("llhttp-tables", `module.exports = ${JSON.stringify(Object.fromEntries(LLHTTP_TABLES.map((k) => [k, llhttp[k]])))};`);

      build.onResolve({ filter: /^undici$/ }, (args) => (/[\\/]node_modules[\\/]/.test(args.importer) ? undefined : pool));
      /** What `filter` names, when an undici file matching `importer` requires it, becomes `to`. */
      const redirect = (filter, importer, to) =>
        build.onResolve({ filter }, (args) => (isUndici(args.importer) && importer.test(args.importer) ? to : undefined));
      redirect(/[\\/]web[\\/]fetch[\\/]body\.js$/, /[\\/]dispatcher[\\/]client-h[12]\.js$/, noFormData);
      redirect(/^\.\/client-h2\.js$/, /[\\/]dispatcher[\\/]client\.js$/, noH2);
      redirect(/^\.\.\/llhttp\/constants\.js$/, /[\\/]dispatcher[\\/]client-h1\.js$/, llhttpTables);
      redirect(/^node:assert$/, /./, assertShim);

      build.onLoad({ filter: /[\\/]undici[\\/]lib[\\/].*\.js$/ }, async (args) => {
        if (!isUndici(args.path)) return undefined;
        let contents = await readFile(args.path, "utf8");
        const other = contents.match(/\bassert\.(?!ok\b|AssertionError\b)\w+/);
        if (other) return { errors: [{ text: `${args.path} uses ${other[0]}: extend the node:assert stand-in in scripts/esbuild-undici-pool.mjs` }] };
        const file = args.path.slice(lib.length).replace(/\\/g, "/");
        if (file === "dispatcher/client-h1.js") {
          const read = [...contents.matchAll(/(?<![\w/])constants\.(\w+)/g)].map((m) => m[1]).find((k) => !LLHTTP_TABLES.includes(k));
          if (read) return { errors: [{ text: `${args.path} reads llhttp's constants.${read}: add it to LLHTTP_TABLES in scripts/esbuild-undici-pool.mjs` }] };
        }
        for (const [from, to] of REWRITES[file] ?? []) {
          if (!contents.includes(from))
            return { errors: [{ text: `${args.path} no longer contains the code scripts/esbuild-undici-pool.mjs rewrites:\n${from}` }] };
          contents = contents.replace(from, to);
        }
        return { contents, loader: "js" };
      });
    },
  };
}
