// The CLI's flags of a fleet operation's declared options (the core's ROLLOUT_OPTIONS and VULNERABILITY_*_OPTIONS):
// each declaration one flag, and the values given read back as the core's readers take them, so that no command
// restates a flag's name, help or choices.

import { flagBool, flagList, flagString, type FlagSpec, type Parsed } from "./args.js";
import { UsageError } from "./exit-codes.js";

/** What a core declaration says that a flag needs. */
export interface DeclaredOption {
  flag: string;
  short?: string;
  value?: string;
  kind: string;
  list?: boolean;
  choices?: readonly string[];
  ignoreCase?: boolean;
  negatable?: boolean;
  description: string;
}

/** The flag of each option, in order; `defaultOf` gives the default the help adds to a non-boolean's description. */
export function optionFlags<O extends DeclaredOption>(options: readonly O[], defaultOf: (option: O) => string | undefined = () => undefined): FlagSpec[] {
  return options.map((o) => {
    const d = o.kind === "boolean" ? undefined : defaultOf(o);
    return {
      name: o.flag,
      type: o.kind === "boolean" ? "boolean" : "string",
      description: `${o.description}${d !== undefined ? ` (default ${d})` : ""}`,
      ...(o.short ? { short: o.short } : {}),
      ...(o.list ? { multiple: true } : {}),
      ...(o.value ? { value: o.value } : {}),
      ...(o.choices ? { choices: o.choices } : {}),
      ...(o.ignoreCase ? { ignoreCase: true } : {}),
      ...(o.negatable ? { negatable: true } : {}),
    };
  });
}

/** How the core's readers name an option in the CLI's messages. */
export const flagLabel = (option: { flag: string }): string => `--${option.flag}`;

/** An option's values on the command line: each one given of a list flag, `"true"`/`"false"` of a boolean;
 * undefined when it is not given. */
export function flagValues(parsed: Parsed): (option: DeclaredOption) => string[] | undefined {
  return (o) => {
    if (o.kind === "boolean") return flagBool(parsed, o.flag) === undefined ? undefined : [String(flagBool(parsed, o.flag))];
    if (o.list) return flagList(parsed, o.flag).length ? flagList(parsed, o.flag) : undefined;
    const v = flagString(parsed, o.flag);
    return v === undefined ? undefined : [v];
  };
}

/** An option's one value (the last given), undefined when it is not given. */
export function flagValue(parsed: Parsed): (option: DeclaredOption) => string | undefined {
  const values = flagValues(parsed);
  return (o) => values(o)?.at(-1);
}

/** The first problem a core reader found, as a usage error (exit 2). */
export function refuseProblems(problems: readonly string[]): void {
  if (problems.length) throw new UsageError(problems[0]!);
}
