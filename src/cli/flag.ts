/**
 * A flag declared once: the field it fills in a command's arguments, its commander option (name, argument, parser,
 * help) and its default. A command lists its flags in help order (args.ts); its typed arguments, the help and the
 * defaults a caller without commander gets all come from that one list.
 */
import type { Command, Option } from 'commander';

export interface Flag<K extends string = string, V = unknown, Filled extends boolean = boolean> {
  /** The field: commander's attribute name of the option (a unit test holds them equal). */
  readonly key: K;
  /** A fresh option for each command that declares the flag. */
  readonly option: () => Option;
  /** Whether a value is always there: the option's default, or false for a switch. */
  readonly filled: Filled;
  /** The value when the flag is not given (none when `filled` is false). */
  readonly fallback: V | undefined;
}

type Value<F> = F extends Flag<string, infer V> ? V : never;
type KeyOf<F, Filled extends boolean> = F extends Flag<infer K, unknown, Filled> ? K : never;

/** A command's arguments: a field per flag, present when it has a default, optional when it has none. */
export type ArgsOf<F extends readonly Flag[]> = {
  [E in F[number] as KeyOf<E, true>]: Value<E>;
} & {
  [E in F[number] as KeyOf<E, false>]?: Value<E>;
};

/** A flag whose value, when not given, is the option's default (which the help shows). */
export const valued =
  <V>() =>
  <K extends string>(key: K, option: () => Option): Flag<K, V, true> => ({
    key,
    option,
    filled: true,
    fallback: option().defaultValue as V,
  });

/** A flag that is either given or not: no default. */
export const maybe =
  <V>() =>
  <K extends string>(key: K, option: () => Option): Flag<K, V, false> => ({
    key,
    option,
    filled: false,
    fallback: undefined,
  });

/** A switch: false unless given. */
export const on = <K extends string>(key: K, option: () => Option): Flag<K, boolean, true> => ({
  key,
  option,
  filled: true,
  fallback: false,
});

/** The flags declared on a command, in order. */
export const addFlags = (cmd: Command, flags: readonly Flag[]): Command =>
  flags.reduce((c, f) => c.addOption(f.option()), cmd);

/** A command's arguments from what was given (commander's values, or a caller's partial ones), defaults filled in. */
export function argsOf<F extends readonly Flag[]>(flags: F, given: Partial<ArgsOf<F>>): ArgsOf<F> {
  const values = given as { readonly [key: string]: unknown };
  return Object.fromEntries(
    flags.flatMap((f) => {
      const v = values[f.key] ?? f.fallback;
      return v === undefined ? [] : [[f.key, v]];
    }),
  ) as ArgsOf<F>;
}

/** What commander parsed for a command declaring `flags`, typed by them (its defaults are the table's). */
export const given = <F extends readonly Flag[]>(cmd: Command, _flags: F): Partial<ArgsOf<F>> =>
  cmd.optsWithGlobals<Partial<ArgsOf<F>>>();
