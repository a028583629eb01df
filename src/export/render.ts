/** site.yml as text: the plays, a header saying where it came from, a comment above each step naming its check. */
import { Document, isMap, isScalar, isSeq } from 'yaml';
import type { ClusterPlay } from './playbook.ts';

export function renderSite(header: string[], plays: ClusterPlay[]): string {
  // YAML 1.1, as PyYAML reads it: a string such as yes, on or 12:30 is quoted, never read as a boolean or a number
  // no anchors either: a shared object is written out each time
  const doc = new Document(
    plays.map((p) => p.play),
    { version: '1.1', aliasDuplicateObjects: false },
  );
  doc.commentBefore = header.map((l) => ` ${l}`).join('\n');
  plays.forEach((p, i) => {
    const play = isSeq(doc.contents) ? doc.contents.items[i] : undefined;
    const all = isMap(play) ? play.get('tasks', true) : undefined;
    const last = isSeq(all) ? all.items[all.items.length - 1] : undefined;
    const tasks = isMap(last) ? last.get('block', true) : undefined;
    if (!isSeq(tasks)) return;
    p.noqa.forEach((rule, j) => {
      const node = tasks.items[j];
      const name = isMap(node) ? node.get('name', true) : undefined;
      if (rule && isScalar(name)) name.comment = ` noqa: ${rule}`;
    });
    p.comments.forEach((c, j) => {
      const node = tasks.items[j];
      if (c && isMap(node))
        node.commentBefore = c
          .split('\n')
          .map((l) => ` ${l}`)
          .join('\n');
    });
  });
  return `---\n${doc.toString({ lineWidth: 140, minContentWidth: 40, indentSeq: true })}`;
}
