/** One alias limit wherever smdoctor turns YAML into values: a ten-line "billion laughs" file is refused, not expanded. */
import { InputError } from './errors.ts';

/** Alias expansions allowed per document (the yaml library's count): far above any real inventory or scenario. */
export const MAX_YAML_ALIASES = 10_000;

export const YAML_LIMITS = { maxAliasCount: MAX_YAML_ALIASES } as const;

/** What a refused document is told, wherever it was read. */
export const aliasBombMessage = (): string =>
  `YAML aliases expand past ${MAX_YAML_ALIASES.toLocaleString('en')} values (an alias bomb?): refused; write the values out or use fewer nested aliases`;

/** Runs a conversion under the limit; a document past it is an input error (exit 2) naming the file. */
export function withAliasLimit<T>(file: string, convert: (opts: typeof YAML_LIMITS) => T): T {
  try {
    return convert(YAML_LIMITS);
  } catch (e) {
    if (e instanceof ReferenceError && /alias/i.test(e.message))
      throw new InputError(aliasBombMessage(), { pos: { file } });
    throw e;
  }
}
