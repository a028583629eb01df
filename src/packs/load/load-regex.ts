/** The regexes a pack may use: ones V8's linear-time engine runs (no backreferences, no lookaround), as RE2 allows. */
import { RegExpParser, visitRegExpAST } from '@eslint-community/regexpp';
import { linearRegExp } from '../../base/linear-regex.ts';

/** Longer patterns are refused: a check's regex picks one value, it does not parse a file. */
export const MAX_REGEX_CHARS = 1000;

/** Why the pattern is refused, or null when it is allowed: JavaScript syntax, run without flags by the linear engine. */
export function regexProblem(source: string): string | null {
  if (source.length > MAX_REGEX_CHARS) return `a regex of ${source.length} characters (at most ${MAX_REGEX_CHARS})`;
  let ast;
  try {
    ast = new RegExpParser({ ecmaVersion: 2024 }).parsePattern(source, 0, source.length, { unicode: false });
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
  if (refused.length)
    return `not a linear-time regex: ${refused.join(', ')} (backreferences and lookaround are refused)`;
  try {
    linearRegExp(source);
  } catch {
    // nested or large counted repetitions ((a+)+ is fine here, a{1000} is not): the engine's own limit
    return 'not a linear-time regex: the linear-time engine cannot run it (a large {n,m} repetition?)';
  }
  return null;
}
