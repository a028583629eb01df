/** Diffs with every line marked: added, removed, hunk headers; the text itself keeps its + and −. */
import { esc } from '../../text/index.ts';

export function diffHtml(diff: string): string {
  const lines = diff.replace(/\n$/, '').split('\n');
  const body = lines
    .map((l) => {
      if (l.startsWith('+++') || l.startsWith('---')) return `<b>${esc(l)}</b>`;
      if (l.startsWith('+')) return `<span class="add" title="added">${esc(l)}</span>`;
      if (l.startsWith('-')) return `<span class="del" title="removed">${esc(l)}</span>`;
      if (l.startsWith('@@')) return `<span class="hunk">${esc(l)}</span>`;
      return esc(l);
    })
    .join('\n');
  return `<pre class="diff">${body}</pre>`;
}
