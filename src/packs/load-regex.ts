/** The regexes a pack may use: ones a linear-time engine could run (no backreferences, no lookaround), as RE2 allows. */
import { RegExpParser, visitRegExpAST } from '@eslint-community/regexpp';

/** Longer patterns are refused: a check's regex picks one value, it does not parse a file. */
export const MAX_REGEX_CHARS = 1000;

/** Why the pattern is refused, or null when it is allowed. It is parsed as JavaScript with the `u` flag. */
export function regexProblem(source: string): string | null {
  if (source.length > MAX_REGEX_CHARS) return `a regex of ${source.length} characters (at most ${MAX_REGEX_CHARS})`;
  let ast;
  try {
    ast = new RegExpParser({ ecmaVersion: 2024 }).parsePattern(source, 0, source.length, { unicode: true });
  } catch (e) {
    return `not a valid regex: ${(e as Error).message.replace(/^Invalid regular expression: /, '')}`;
  }
  const refused: string[] = [];
  visitRegExpAST(ast, {
    onBackreferenceEnter: (n) => void refused.push(`the backreference ${n.raw}`),
    onAssertionEnter: (n) => {
      if (n.kind === 'lookahead' || n.kind === 'lookbehind') refused.push(`the ${n.kind} ${n.raw}`);
    },
  });
  return refused.length
    ? `not a linear-time regex: ${refused.join(', ')} (backreferences and lookaround are refused)`
    : null;
}
