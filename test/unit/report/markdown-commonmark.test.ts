/** Markdown reports rendered by a real CommonMark renderer: hostile names make no element but the report's own. */
import t from 'tap';
import MarkdownIt from 'markdown-it';
import { renderReport } from '../../../src/report/render.ts';
import { renderStored } from '../../../src/migrate/stored/fleet.ts';
import { findStored, storedConfig } from '../../../src/migrate/stored/find.ts';
import { clusterMacros, clusterMappings } from '../../../src/migrate/providers.ts';
import type { ClusterTarget } from '../../../src/migrate/cluster.ts';
import { codeSpan, fence, mdText } from '../../../src/text/index.ts';
import { fakeCluster, MAPPINGS } from '../../helpers/migrate/stored-fake.ts';
import { sample } from '../../helpers/report/sample.ts';

// raw HTML on, as many ticket systems render it: what reaches the page is what a reader's browser would run
const md = new MarkdownIt({ html: true });
const tags = (html: string): Set<string> => new Set([...html.matchAll(/<([a-z][a-z0-9]*)/g)].map((m) => m[1]!));
const text = (html: string): string =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

const HOSTILE = [
  'x`<img src=x onerror=alert(1)>`y',
  'a``b```c<script>alert(1)</script>',
  '![i](http://e.example/x.png) [l](javascript:alert(1)) <http://evil.example>',
  '*em* _em_ ~~del~~ **b**',
  '# head',
  '- item',
  '1. one',
  '> quote',
  '    indented code',
  '&lt;b&gt; &#60;i&#62; \\<b\\>',
  '| a | b |',
  'line\n```\n<iframe src=x></iframe>\n```\nafter',
  '`',
  ' ` ',
];

const REPORT_TAGS = new Set(['h1', 'h2', 'h3', 'p', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'code', 'pre']);
const REPORT_TAGS_ALL = new Set([...REPORT_TAGS, 'ol', 'ul', 'li', 'strong']);

t.test('the building blocks: spans, fences and text show any string as written', async (t) => {
  for (const s of HOSTILE) {
    const one = s.replace(/\n/g, '\\n');
    t.same([...tags(md.render(codeSpan(s)))].sort(), ['code', 'p'], `span ${JSON.stringify(s)}`);
    t.equal(text(md.render(codeSpan(s))).trim(), one.trim(), `span text ${JSON.stringify(s)}`);
    t.same([...tags(md.render(fence(s, 'text')))].sort(), ['code', 'pre'], `fence ${JSON.stringify(s)}`);
    t.equal(text(md.render(fence(s, 'text'))), `${s}\n\n`, `fence text ${JSON.stringify(s)}`);
    t.same([...tags(md.render(`- ${mdText(s)}`))].sort(), ['li', 'ul'], `text ${JSON.stringify(s)}`);
    t.equal(text(md.render(mdText(s))).trim(), s.replace(/\n/g, ' ').trim(), `text as written ${JSON.stringify(s)}`);
  }
});

t.test('audit markdown: hostile names in every place a host or the API fills', async (t) => {
  for (const s of HOSTILE) {
    const r = sample();
    const c = r.clusters[0]!;
    c.name = s;
    c.checks[0]!.reason = s;
    c.checks[1]!.findings[0]!.message = s;
    c.checks[3]!.findings[0]!.host = s;
    c.checks[3]!.actions[0]!.command = s;
    c.checks[1]!.actions[0]!.backup = s;
    c.notes[0]!.message = s;
    c.refused = [s];
    const html = md.render(renderReport(r, 'markdown'));
    const extra = [...tags(html)].filter((x) => !REPORT_TAGS_ALL.has(x));
    t.same(extra, [], `no element but the report's own for ${JSON.stringify(s)}`);
    t.equal(html.match(/<h2/g)?.length, 3, 'one heading per cluster, and the summary');
    t.notMatch(html, /<(img|script|iframe|a)\b/);
  }
});

t.test('migrate markdown: a job id or a query closes no fence', async (t) => {
  for (const s of HOSTILE) {
    const api = fakeCluster({
      mappings: MAPPINGS,
      docs: { '.sm_jsc_jobs': { [`doc-${s}`]: { _meta: { id: s }, query: `source logs-1 | search host=x ${s}` } } },
    });
    const found = await findStored(api, 'jobs', storedConfig({}), {
      mappings: clusterMappings(api),
      macros: clusterMacros(api),
    });
    const target = { api: { url: 'http://fake:9200' }, hosts: [s] } as unknown as ClusterTarget;
    for (const scans of [
      [{ target, found }],
      [
        { target, found },
        { target, found },
      ],
    ]) {
      const out = renderStored('jobs', scans, 'markdown', false);
      const html = md.render(out);
      const extra = [...tags(html)].filter((x) => !['h1', 'h2', 'pre', 'code'].includes(x));
      t.same(extra, [], `${scans.length} cluster(s): no element but headings and code for ${JSON.stringify(s)}`);
      t.equal(html.match(/<pre>/g)?.length, scans.length, 'one block per cluster');
    }
  }
});
