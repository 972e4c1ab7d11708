#!/usr/bin/env node
// Writes the input and output tables of action/README.md from action/action.yml, between its
// `<!-- BEGIN GENERATED: inputs|outputs -->` and `<!-- END GENERATED: ... -->` markers; the rest of the page is
// written by hand. scripts/check-generated-docs.mjs (CI) fails when the committed tables differ.
//
//   node scripts/generate-action-readme.mjs          rewrite action/README.md's tables
//   (npm run generate:docs runs it with the CLI reference)
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const ACTION_README = "action/README.md";
const ACTION_YML = "action/action.yml";

const cell = (text) =>
  String(text)
    .replace(/\|/g, "\\|")
    .replace(/\s*\n\s*/g, " ")
    .trim();

/** The default an input declares, else the one its description states ("Default: 4."), else "". */
function inputDefault(input) {
  if (input.default !== undefined) return `\`${input.default}\``;
  const m = /Default: (.*?)\.?$/.exec(input.description ?? "");
  return m ? cell(m[1]) : "";
}

function tables(action) {
  const inputs = Object.entries(action.inputs ?? {}).map(([name, input]) => {
    const description = cell((input.description ?? "").replace(/\s*Default: .*$/, ""));
    return `| \`${name}\` | ${input.required ? "yes" : "no"} | ${inputDefault(input)} | ${description} |`;
  });
  const outputs = Object.entries(action.outputs ?? {}).map(([name, output]) => `| \`${name}\` | ${cell(output.description ?? "")} |`);
  return {
    inputs: ["| input | required | default | description |", "|---|---|---|---|", ...inputs].join("\n"),
    outputs: ["| output | description |", "|---|---|", ...outputs].join("\n"),
  };
}

/** `readme` with its generated tables replaced by what `actionYml` declares; throws when a marker is missing. */
export function withActionTables(readme, actionYml) {
  const generated = tables(parse(actionYml));
  let text = readme;
  for (const [name, table] of Object.entries(generated)) {
    const begin = new RegExp(`<!-- BEGIN GENERATED: ${name}\\b[^>]*-->`);
    const end = `<!-- END GENERATED: ${name} -->`;
    const b = begin.exec(text);
    const e = text.indexOf(end);
    if (!b || e < b.index) throw new Error(`${ACTION_README} has no "<!-- BEGIN GENERATED: ${name} ... -->" ... "${end}" markers`);
    text = `${text.slice(0, b.index + b[0].length)}\n${table}\n${text.slice(e)}`;
  }
  return text;
}

/** action/README.md as it should be. */
export function actionReadme() {
  return withActionTables(readFileSync(path.join(ROOT, ACTION_README), "utf8"), readFileSync(path.join(ROOT, ACTION_YML), "utf8"));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(path.join(ROOT, ACTION_README), actionReadme());
  console.error(`generate-action-readme: wrote the tables of ${ACTION_README} from ${ACTION_YML}`);
}
