import t from 'tap';
import { renderReport } from '../../../src/report/render.ts';
import { fixSample, sample } from '../../helpers/report/sample.ts';

t.test('markdown: headings, a table of checks, findings, fenced diffs and bodies', async (t) => {
  const out = renderReport(sample(), 'markdown');
  t.match(out, /^# smdoctor audit — 2 clusters, 3 hosts, 1 unreachable, 2 checks failed\n/);
  // HTML in a name is written as entities: a ticket must not run or hide it
  t.match(out, '## Cluster prod &lt;&amp;&gt; "one" (https://10.0.0.1:9200)');
  // what does not pass first, then the passing rows
  t.match(out, '| # | check | status | reason |\n|---|---|---|---|\n| 2 | `master-node-with-sme` | **FAIL** |');
  t.match(out, /\| 4 \| `master-plugins` \| \*\*FAIL\*\* [^\n]+\n\| 1 \| `base-limit-document` \| \*\*PASS\*\*/);
  t.match(out, '| 2 | `master-node-with-sme` | **FAIL** | node_with_sme is true on 1 master node |');
  t.match(out, /### Findings\n\n- `master-node-with-sme` — m1: node.attr.node_with_sme is true/);
  t.match(
    out,
    /### Plan\n\n1\. `set-yaml on m1: [^`]+`\n\n +```diff\n +--- m1:\/app\/opensearch\/config\/opensearch.yml\n(?: +.*\n)+ +```/,
  );
  t.match(out, /```json\n +\{\n +"index": \{/);
  t.match(out, '### Notes');
  t.equal((out.match(/^## /gm) ?? []).length, 3, 'one section per cluster, and the summary');
  t.match(
    out,
    /## By severity\n\n- critical: 5 checks on 2 clusters — 2 pass, 2 fail, 1 error, 1 skip\n  - ✗ master-node-with-sme on 1 cluster: prod/,
  );
  const fences = out.match(/^ *```/gm) ?? [];
  t.equal(fences.length % 2, 0, 'every fence is closed');
});

t.test('markdown: a pipe in a reason does not break the table', async (t) => {
  const r = sample();
  r.clusters[0]!.checks[0]!.reason = 'a | b';
  t.match(renderReport(r, 'markdown'), '| a \\| b |');
});

t.test('markdown after fix: what was done, the cluster actions, the refusal, the checks after', async (t) => {
  const out = renderReport(fixSample(), 'markdown');
  t.match(out, /^# smdoctor fix — [^\n]+\n\nFix: 2 done, 1 failed, 1 skipped\.\n/);
  t.match(out, /### Cluster actions\n\n1\. ✓ `reset-allocation: PUT \/_cluster\/settings [^`]+\[done\]`/);
  t.match(out, /### Plan\n\n1\. ✓ `set-yaml on m1: [^`]+\[done\]`/);
  t.match(out, /\n2\. ✗ `restart-service on m1 \(opensearch\): systemctl restart opensearch \[failed: exit 1\]`/);
  t.match(
    out,
    '### After the fix\n\n| check | status | reason |\n|---|---|---|\n| `master-node-with-sme` | **FAIL** | restart pending |',
  );
  t.match(
    out,
    '## Cluster https://10.0.1.1:9200\n\n### Refused — nothing (more) was changed in this cluster\n\n- pre-flight: health is red (2 unassigned shards)\n- drift: node n4 joined\n\n### Cluster actions\n\n1. – `reset-allocation',
  );
});
