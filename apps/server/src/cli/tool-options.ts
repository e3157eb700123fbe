import { parseArgs } from 'node:util';

/**
 * A command-line tool's `--name value` options, read strictly (an unknown option, a flag without
 * its value, a stray argument are refused): the values by name, or the problem as one line. A
 * value given empty is refused too; what else a value must be is the tool's to check.
 */
export function readToolOptions<const Name extends string>(
  argv: string[],
  names: readonly Name[],
): Partial<Record<Name, string>> | string {
  let values: Record<string, unknown>;
  try {
    values = parseArgs({
      args: argv,
      options: Object.fromEntries(names.map((name) => [name, { type: 'string' as const }])),
      strict: true,
    }).values;
  } catch (error) {
    return (error as Error).message;
  }
  for (const name of names) {
    const value = values[name];
    if (typeof value === 'string' && value.trim() === '') return `--${name} must not be empty`;
  }
  return values as Partial<Record<Name, string>>;
}

/** Prints a problem with the tool's options and its usage; the exit code for it (2). */
export function refuseUsage(problem: string, usage: string): 2 {
  console.error(`${problem}\n${usage}`);
  return 2;
}
