import t from 'tap';
import { renderReport } from '../../src/report/index.ts';
import { sample } from './sample.ts';

t.test('markdown: headings, a table of checks, findings, fenced diffs and bodies', async (t) => {
  const out = renderReport(sample(), 'markdown');
  t.match(out, /^# smdoctor audit — 2 clusters, 3 hosts, 1 unreachable, 2 checks failed\n/);
  // HTML in a name is written as entities: a ticket must not run or hide it
  t.match(out, '## Cluster prod &lt;&amp;&gt; "one" (https://10.0.0.1:9200)');
  t.match(out, '| # | check | status | reason |\n|---|---|---|---|\n| 1 | `base-limit-document` | **PASS** |');
  t.match(out, '| 2 | `master-node-with-sme` | **FAIL** | node_with_sme is true on 1 master node |');
  t.match(out, /### Findings\n\n- `master-node-with-sme` — m1: node.attr.node_with_sme is true/);
  t.match(
    out,
    /### Plan\n\n1\. `set-yaml on m1: [^`]+`\n\n +```diff\n +--- m1:\/app\/opensearch\/config\/opensearch.yml\n(?: +.*\n)+ +```/,
  );
  t.match(out, /```json\n +\{\n +"index": \{/);
  t.match(out, '### Notes');
  t.equal((out.match(/^## /gm) ?? []).length, 2, 'one section per cluster');
  const fences = out.match(/^ *```/gm) ?? [];
  t.equal(fences.length % 2, 0, 'every fence is closed');
});

t.test('markdown: a pipe in a reason does not break the table', async (t) => {
  const r = sample();
  r.clusters[0]!.checks[0]!.reason = 'a | b';
  t.match(renderReport(r, 'markdown'), '| a \\| b |');
});
