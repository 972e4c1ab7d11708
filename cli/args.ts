// Command-line flags and arguments, parsed against a command's declared flags. Every mistake is one precise
// UsageError (exit 2) naming the flag, before anything is sent: an unknown flag (with the closest known one),
// a missing or extra value, a value outside its choices, a flag given twice, a missing argument.

import { nearest } from "./did-you-mean.js";
import { UsageError } from "./exit-codes.js";

export interface FlagSpec {
  /** Long name without the dashes: `site` for --site. */
  name: string;
  /** One letter: `q` for -q. */
  short?: string;
  type: "boolean" | "string";
  /** May be given several times (values collected in order). */
  multiple?: boolean;
  /** Placeholder of the value in help: `ID|NAME`. */
  value?: string;
  description: string;
  choices?: readonly string[];
  /** `choices` in any case (`--fail-on High`): the value is taken lower-cased. */
  ignoreCase?: boolean;
  /** A boolean that also has --no-NAME (sets false). */
  negatable?: boolean;
  /** The environment variable that gives the value when the flag is not on the command line (read where the flag
   * is read: `flagOrEnv`). A job flag's variable set turns the job on as the flag does. */
  env?: string;
  /** A string flag whose value can only be attached with `=` (`--json` alone, or `--json=id,name`); alone it
   * parses as "". */
  optionalValue?: boolean;
}

export interface ArgSpec {
  name: string;
  required?: boolean;
  /** Takes every remaining argument. */
  variadic?: boolean;
}

type FlagValue = string | boolean | string[] | undefined;

export interface Parsed {
  flags: Record<string, FlagValue>;
  args: string[];
}

/** Parses `argv` for the command `where` ("siteops sites list"). */
export function parseArgv(argv: readonly string[], flags: readonly FlagSpec[], args: readonly ArgSpec[], where: string): Parsed {
  const byName = new Map(flags.map((f) => [f.name, f]));
  const byShort = new Map(flags.filter((f) => f.short).map((f) => [f.short!, f]));
  const values: Record<string, FlagValue> = {};
  const positional: string[] = [];
  const set = (spec: FlagSpec, given: string | boolean, shown: string) => {
    const value = spec.ignoreCase && typeof given === "string" ? given.toLowerCase() : given;
    if (spec.choices && typeof value === "string" && !spec.choices.includes(value)) {
      throw new UsageError(`${shown} must be one of ${spec.choices.join(", ")} (got ${JSON.stringify(given)})`);
    }
    if (spec.multiple) {
      values[spec.name] = [...((values[spec.name] as string[] | undefined) ?? []), value as string];
      return;
    }
    if (values[spec.name] !== undefined) throw new UsageError(`${shown} is given twice`);
    values[spec.name] = value;
  };

  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === "--") {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (token.startsWith("--")) {
      const eq = token.indexOf("=");
      const name = token.slice(2, eq === -1 ? undefined : eq);
      const attached = eq === -1 ? undefined : token.slice(eq + 1);
      const spec = byName.get(name);
      if (!spec && name.startsWith("no-")) {
        const negated = byName.get(name.slice(3));
        if (negated?.negatable) {
          if (attached !== undefined) throw new UsageError(`--${name} takes no value`);
          set(negated, false, `--${negated.name}/--${name}`);
          continue;
        }
      }
      if (!spec) throw unknownFlag(`--${name}`, flags, where);
      const shown = `--${spec.name}`;
      if (spec.type === "boolean") {
        if (attached !== undefined) throw new UsageError(`${shown} takes no value (got ${JSON.stringify(token)})`);
        set(spec, true, shown);
      } else if (attached !== undefined) {
        if (attached === "" && !spec.optionalValue) throw new UsageError(`${shown} needs a value${spec.value ? ` (${spec.value})` : ""}`);
        set(spec, attached, shown);
      } else if (spec.optionalValue) {
        set(spec, "", shown);
      } else {
        const next = argv[i + 1];
        if (next === undefined || (next.startsWith("--") && next.length > 2)) {
          throw new UsageError(`${shown} needs a value${spec.value ? ` (${spec.value})` : ""}`);
        }
        set(spec, next, shown);
        i++;
      }
      continue;
    }
    if (token.startsWith("-") && token.length > 1) {
      const spec = token.length === 2 ? byShort.get(token[1]!) : undefined;
      if (!spec) throw unknownFlag(token, flags, where);
      if (spec.type === "boolean") set(spec, true, token);
      else {
        const next = argv[i + 1];
        if (next === undefined) throw new UsageError(`${token} needs a value${spec.value ? ` (${spec.value})` : ""}`);
        set(spec, next, token);
        i++;
      }
      continue;
    }
    positional.push(token);
  }

  const variadic = args.some((a) => a.variadic);
  if (!variadic && positional.length > args.length) {
    const extra = positional[args.length]!;
    throw new UsageError(
      args.length === 0
        ? `${where} takes no arguments (got ${JSON.stringify(extra)})`
        : `unexpected argument ${JSON.stringify(extra)}: ${where} takes ${args.map((a) => a.name).join(" ")}`,
    );
  }
  args.forEach((arg, i) => {
    if (arg.required && positional[i] === undefined) throw new UsageError(`missing ${arg.name}: usage: ${where} ${args.map(argUsage).join(" ")}`);
  });
  return { flags: values, args: positional };
}

export function argUsage(arg: ArgSpec): string {
  const name = arg.variadic ? `${arg.name}...` : arg.name;
  return arg.required ? name : `[${name}]`;
}

function unknownFlag(flag: string, flags: readonly FlagSpec[], where: string): UsageError {
  const name = flag.replace(/^-+/, "").split("=")[0]!;
  const best = nearest(
    name,
    flags.flatMap((f) => (f.negatable ? [f.name, `no-${f.name}`] : [f.name])),
  );
  const hint = best !== undefined ? ` (did you mean --${best}?)` : "";
  return new UsageError(`unknown flag ${flag.split("=")[0]} for ${where}${hint}; see ${where} --help`);
}

/** Typed readers of parsed flags. */
export function flagString(parsed: Parsed, name: string): string | undefined {
  const v = parsed.flags[name];
  return typeof v === "string" ? v : undefined;
}
export function flagBool(parsed: Parsed, name: string): boolean | undefined {
  const v = parsed.flags[name];
  return typeof v === "boolean" ? v : undefined;
}
export function flagList(parsed: Parsed, name: string): string[] {
  const v = parsed.flags[name];
  return Array.isArray(v) ? v : [];
}

/** A string flag's value from the command line, else from its environment variable (`spec.env`; set but empty or
 * blank counts as not set), with where it came from (`--ping` or `SITEOPS_PING_URL`) for messages. */
export function flagOrEnv(parsed: Parsed, spec: FlagSpec, env: NodeJS.ProcessEnv): { value: string; from: string } | undefined {
  const given = flagString(parsed, spec.name);
  if (given !== undefined) return { value: given, from: `--${spec.name}` };
  const fromEnv = spec.env === undefined ? undefined : env[spec.env];
  return fromEnv === undefined || fromEnv.trim() === "" ? undefined : { value: fromEnv, from: spec.env! };
}

/** A whole number flag within [min, max]. */
export function flagInt(parsed: Parsed, name: string, min: number, max: number): number | undefined {
  const raw = flagString(parsed, name);
  if (raw === undefined) return undefined;
  const n = /^\d+$/.test(raw.trim()) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${name} must be a whole number from ${min} to ${max} (got ${JSON.stringify(raw)})`);
  return n;
}
