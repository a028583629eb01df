import t from 'tap';
import { applyPatch, parsePatch } from 'diff';
import { unifiedDiff, setList, readKey } from '../../../src/yamledit/index.ts';

t.test('git-style headers, exactly three lines of context', async (t) => {
  const lines = Array.from({ length: 20 }, (_, i) => `k${i}: ${i}`);
  const before = lines.join('\n') + '\n';
  const after = before.replace('k10: 10', 'k10: ten');
  const d = unifiedDiff('/app/opensearch/config/opensearch.yml', before, after);
  t.match(
    d,
    /^--- a\/app\/opensearch\/config\/opensearch\.yml\n\+\+\+ b\/app\/opensearch\/config\/opensearch\.yml\n@@ -8,7 \+8,7 @@\n/,
  );
  const [p] = parsePatch(d);
  t.equal(p.hunks.length, 1);
  t.same(p.hunks[0].lines, [' k7: 7', ' k8: 8', ' k9: 9', '-k10: 10', '+k10: ten', ' k11: 11', ' k12: 12', ' k13: 13']);
  t.equal(applyPatch(before, d), after);
  t.match(
    unifiedDiff('rel/x.yml', 'a: 1\n', 'a: 1\n'),
    /^--- a\/rel\/x\.yml\n\+\+\+ b\/rel\/x\.yml\n$/,
    'no change, no hunk',
  );
});

t.test('generated host lists: kept items untouched, diff applies', async (t) => {
  const urls = ['https://10.0.0.1:9200', 'https://10.0.0.4:9200', 'https://d2.example:9200', 'https://10.0.0.2:9200'];
  const quote = [(u: string) => u, (u: string) => `"${u}"`, (u: string) => `'${u}'`];
  const lists = [
    (items: string[]) => `opensearch.hosts:\n${items.map((i) => `  - ${i}\n`).join('')}`,
    (items: string[]) => `opensearch.hosts:\n${items.map((i) => `- ${i} # node\n`).join('')}`,
    (items: string[]) => `opensearch.hosts: [${items.join(', ')}]\n`,
    (items: string[]) => `opensearch:\n  hosts:\n${items.map((i) => `    - ${i}\n`).join('')}  requestTimeout: 30000\n`,
  ];
  const around = [
    ['', ''],
    ['server.port: 5601\n# hosts:\n', 'logging.dest: stdout\n'],
  ];
  const keeps = [[1, 2], [1], [0, 3], [2]];
  let n = 0;
  for (const q of quote)
    for (const l of lists)
      for (const [pre, post] of around)
        for (const keep of keeps) {
          const before = pre + l(urls.map(q)) + post;
          const want = keep.map((i) => urls[i]);
          const r = setList(before, 'opensearch.hosts', want);
          const d = unifiedDiff('/x.yml', before, r.text);
          const ok =
            r.ok &&
            applyPatch(before, d) === r.text &&
            JSON.stringify(readKey(r.text, 'opensearch.hosts').found?.value) === JSON.stringify(want);
          // Block lists lose exactly the dropped lines; everything else stays byte-identical.
          const blockOk = l === lists[2] || r.text.split('\n').every((line) => before.split('\n').includes(line));
          if (!ok || !blockOk) t.fail(`case ${n}: ${JSON.stringify(before)} → ${JSON.stringify(r.text)}`);
          n++;
        }
  t.equal(n, 96);
  t.pass('every generated list edited exactly');
});
