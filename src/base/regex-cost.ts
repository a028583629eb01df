/**
 * What a pack regex may cost. The linear-time engine runs a match in (program size) × (characters scanned) steps, so
 * both are bounded: the pattern's weight (its compiled program's size, estimated from its syntax) when it is loaded,
 * and the characters a match scans when it runs, so that no match exceeds MAX_MATCH_WORK steps.
 */
import { RegExpParser, type AST } from '@eslint-community/regexpp';
import { linearRegExp } from './linear-regex.ts';

/** The heaviest pattern a pack may use (an alternation of 40 five-letter words weighs about 370). */
export const MAX_REGEX_WEIGHT = 400;
/** Steps of one match at most: weight × characters scanned (about 0.1 s of one core, measured in docs/BENCHMARKS.md). */
export const MAX_MATCH_WORK = 2_500_000;
/** Characters any match scans at most, however light the pattern. */
export const MAX_SCANNED_CHARS = 256 * 1024;

// the ranges the engine tests one by one for a class escape (\s is Unicode's white space, \w four ranges, …)
const SET_WEIGHT: Record<string, number> = { digit: 2, word: 5, space: 12, any: 12, property: 50 };

type Node = AST.Node;

function weightOf(n: Node): number {
  switch (n.type) {
    case 'Pattern':
    case 'Group':
    case 'CapturingGroup':
      // each alternative costs a fork and a jump besides its own program
      return n.alternatives.reduce((s, a) => s + weightOf(a) + 4, 1);
    case 'Alternative':
      return n.elements.reduce((s, e) => s + weightOf(e), 0);
    case 'Quantifier': {
      // a counted repetition is compiled as that many copies; an open one as min copies and one loop
      const copies = n.max === Infinity ? n.min + 1 : n.max;
      return weightOf(n.element) * Math.max(1, copies) + 4;
    }
    case 'CharacterClass':
      return n.elements.reduce((s, e) => s + (e.type === 'CharacterSet' ? (SET_WEIGHT[e.kind] ?? 1) : 1), 2);
    case 'CharacterSet':
      return SET_WEIGHT[n.kind] ?? 1;
    default:
      return 1;
  }
}

/** The pattern's weight; Infinity for a pattern that does not parse. */
export function regexWeight(source: string): number {
  try {
    return weightOf(new RegExpParser({ ecmaVersion: 2024 }).parsePattern(source, 0, source.length, { unicode: false }));
  } catch {
    return Infinity;
  }
}

/** Characters a match of a pattern of this weight may scan. */
export const scanLimit = (weight: number): number => Math.min(MAX_SCANNED_CHARS, Math.floor(MAX_MATCH_WORK / weight));

const compiled = new Map<string, { re: RegExp; limit: number }>();

/** The first match in `text`, or why the text is too long to scan with this pattern. */
export function boundedExec(source: string, flags: string, text: string): RegExpExecArray | null | { tooLong: string } {
  const key = `${flags}/${source}`;
  let c = compiled.get(key);
  if (!c) compiled.set(key, (c = { re: linearRegExp(source, flags), limit: scanLimit(regexWeight(source)) }));
  if (text.length > c.limit)
    return {
      tooLong: `${text.length} characters are more than this regex may scan (${c.limit}; a lighter pattern may scan up to ${MAX_SCANNED_CHARS})`,
    };
  c.re.lastIndex = 0;
  return c.re.exec(text);
}
