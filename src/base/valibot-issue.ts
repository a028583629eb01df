/** A valibot issue in words: where in a document the first problem is and what was found there. */
import type * as v from 'valibot';

const short = (s: string): string => (s.length > 40 ? `${s.slice(0, 40)}…` : s);

/** `number 5`, `null`, `an object`: the found value, short. */
export const typeOf = (x: unknown): string =>
  x === null
    ? 'null'
    : Array.isArray(x)
      ? 'an array'
      : typeof x === 'object'
        ? 'an object'
        : `${typeof x} ${short(JSON.stringify(x) ?? String(x))}`;

/** `field [0].node.roles`, or `the body` at the top. */
export function where(issue: v.BaseIssue<unknown>, top = 'the body'): string {
  const path = (issue.path ?? []).map((p) => (typeof p.key === 'number' ? `[${p.key}]` : `.${String(p.key)}`)).join('');
  return path === '' ? top : `field ${path.replace(/^\./, '')}`;
}

/** `field clusters[0].checks is undefined, expected array`: the first issue, for an error message. */
export function issueText(issue: v.BaseIssue<unknown>, top?: string): string {
  const expected = issue.expected ? `, expected ${issue.expected.toLowerCase()}` : '';
  // a strict object's extra key: the issue's input is the key itself
  if (issue.type === 'strict_object' && issue.expected === 'never') return `${where(issue, top)} is unknown`;
  if (issue.input === undefined) return `${where(issue, top)} is missing`;
  return `${where(issue, top)} is ${typeOf(issue.input)}${expected}`;
}
