import t from 'tap';
import stringWidth from 'string-width';
import type { Report } from '../../../src/model/index.ts';
import { renderReport } from '../../../src/report/render.ts';
import { sample } from '../../helpers/report/sample.ts';

const ANSI = /\x1b\[/;

t.test(
  'text: one line per check, findings, numbered plan with diff, command and REST body, notes, summary',
  async (t) => {
    const out = renderReport(sample(), 'text', { color: false });
    t.notMatch(out, ANSI, 'no colour when not a terminal');
    const lines = out.split('\n');
    const checkLines = lines.filter((l) => /^(PASS|FAIL|ERROR|SKIP) \d /.test(l));
    t.same(
      checkLines.map((l) => l.split(' — ')[0]),
      // what does not pass first, then the rest, each in the report's order
      [
        'FAIL 2 master-node-with-sme',
        'ERROR 3 dashboards-hosts',
        'FAIL 4 master-plugins',
        'PASS 1 base-limit-document',
        'SKIP 5 limits-index-replicas',
        'PASS 1 base-limit-document',
      ],
    );
    t.match(out, 'm1: node.attr.node_with_sme is true [/app/opensearch/config/opensearch.yml:3 value=true]');
    t.match(out, /1\. set-yaml on m1: \/app\/opensearch\/config\/opensearch.yml node.attr.node_with_sme = false/);
    t.match(out, /^ +-node.attr.node_with_sme: true$/m);
    t.match(out, /2\. restart-service on m1 \(opensearch\): systemctl restart opensearch/);
    t.match(
      out,
      /3\. remove-keystore-entry on m1: sudo -u opensearch \/app\/opensearch\/bin\/opensearch-keystore remove jobscheduler.email.pass/,
    );
    t.match(out, /4\. put-settings: PUT \/.sm_sme_limits_user\/_settings\n +\{\n +"index"/);
    t.match(out, /notes:\n +- d9: restart pending/);
    t.match(lines.filter(Boolean).at(-1), 'summary: 2 clusters, 3 hosts, 1 unreachable, 2 checks failed');
    t.match(out, '== cluster prod <&> "one" (https://10.0.0.1:9200) ==');
    t.match(out, '== cluster https://10.0.1.1:9200 ==', 'no name twice when the name is the url');
  },
);

t.test('text: colour on a terminal', async (t) => {
  t.match(renderReport(sample(), 'text', { color: true }), ANSI);
});

/** A report of one cluster with pack checks that say why and where their docs are: one fails, the others pass. */
function packReport(): Report {
  const r = sample();
  const c = r.clusters[1]!;
  const about = (n: number) => ({
    severity: n % 2 ? ('high' as const) : ('medium' as const),
    title: `Check ${n} holds`,
    why: `Because number ${n} matters a great deal to the fleet.`,
    docs: `https://docs.example/${n}`,
  });
  c.checks = Array.from({ length: 6 }, (_, n) => ({
    id: `acme/check-${n}` as const,
    order: 6 + n,
    status: n === 3 ? ('fail' as const) : ('pass' as const),
    ...about(n),
    reason: n === 3 ? 'does not hold on d1' : `holds on ${n + 1} node(s) in scope`,
    findings: n === 3 ? [{ host: 'd1', message: 'value 7, not 8', evidence: { file: '/etc/x', line: 2 } }] : [],
    actions: [],
  }));
  r.clusters = [c];
  return r;
}

t.test(
  'text: a passing check is one line; why, docs and evidence only for what does not pass, or with -v',
  async (t) => {
    const out = renderReport(packReport(), 'text', { color: false });
    const lines = out.split('\n');
    for (const n of [0, 1, 2, 4, 5]) {
      const at = lines.findIndex((l) => l.startsWith(`PASS ${6 + n} acme/check-${n} — `));
      t.ok(at > 0, `check ${n} has its line`);
      t.notMatch(lines[at + 1], /^\s/, `and nothing under it`);
    }
    t.notMatch(out, /why: Because number [01245]/, 'no why of a passing check');
    t.notMatch(out, /docs\.example\/[01245]/, 'no docs of a passing check');
    t.match(
      out,
      /^FAIL 9 acme\/check-3 — does not hold on d1\n +Check 3 holds \(severity high\)\n +why: Because number 3/m,
    );
    t.match(out, 'docs: https://docs.example/3');
    t.match(out, '- d1: value 7, not 8 [/etc/x:2]');
    t.ok(
      lines.findIndex((l) => l.startsWith('FAIL 9')) < lines.findIndex((l) => l.startsWith('PASS 6')),
      'the failure comes before the passes',
    );
    const verbose = renderReport(packReport(), 'text', { color: false, verbose: true });
    for (const n of [0, 1, 2, 3, 4, 5]) t.match(verbose, `why: Because number ${n}`, `-v: the why of check ${n}`);
  },
);

t.test('text: a summary per severity at the end, what fails named with its clusters', async (t) => {
  const out = renderReport(packReport(), 'text', { color: false });
  t.match(
    out,
    /\nby severity:\n  high: 3 checks — 2 pass, 1 fail\n    ✗ acme\/check-3\n  medium: 3 checks — 3 pass\nsummary: /,
  );
  const two = sample();
  t.match(
    renderReport(two, 'text', { color: false }),
    /by severity:\n  critical: 5 checks on 2 clusters — 2 pass, 2 fail, 1 error, 1 skip\n    ✗ master-node-with-sme on 1 cluster: prod <&> "one"\n/,
  );
});

const visible = (l: string) => stringWidth(l.replace(/\x1b\[[0-9;]*m/g, ''));

t.test('text: every line fits the width given, wide characters and long words included, colour or not', async (t) => {
  const r = sample();
  const c = r.clusters[0]!;
  // a name of wide characters, a word longer than any line, a finding of many words
  c.name = '本番クラスタ'.repeat(8);
  c.checks[1]!.findings[0]!.message = `x${'y'.repeat(300)} ${'word '.repeat(60)}`;
  c.checks[1]!.reason = '検索'.repeat(70);
  c.notes[0]!.message = 'note '.repeat(50);
  for (const width of [40, 80, 120])
    for (const color of [false, true]) {
      const out = renderReport(r, 'text', { color, width });
      const over = out.split('\n').filter((l) => visible(l) > width);
      t.same(over, [], `width ${width}${color ? ', coloured' : ''}: no line is wider`);
    }
  const out = renderReport(r, 'text', { color: false, width: 40 });
  t.match(out, 'yyyy', 'the long word is cut, not lost');
  t.equal((out.match(/y/g) ?? []).length >= 300, true, 'all of it');
  t.match(out, /^PASS 1 base-limit-document — the base l…$/m, 'a passing line is cut, never wrapped');
  t.equal(out.split('\n').filter((l) => /^ERROR 3 /.test(l)).length, 1);
  const unbounded = renderReport(r, 'text', { color: false });
  t.ok(
    unbounded.split('\n').some((l) => visible(l) > 120),
    'without a width, lines are as long as their text (a file, a pipe)',
  );
});

t.test('text: each node says where its files were read and why, a path with a newline on one line', async (t) => {
  const r = sample();
  r.clusters[0]!.nodes[0]!.layout = {
    engine_config: { path: '/etc/opensearch', why: "the running process's OPENSEARCH_PATH_CONF (pid 812)" },
    engine_home: { path: '/usr/share/opensearch', why: "the packages' folder" },
    web_config: { path: '/app/opensearch-dashboards/config', why: "the archive's layout" },
    web_home: { path: '/app/opensearch-dashboards', why: "the archive's layout" },
    refused: ['/etc/default/opensearch OPENSEARCH_HOME: holds a\ncontrol character'],
  };
  const out = renderReport(r, 'text');
  t.match(
    out,
    "\n     config /etc/opensearch (the running process's OPENSEARCH_PATH_CONF (pid 812)); home /usr/share/opensearch (the packages' folder)\n",
  );
  t.notMatch(out, /web config/, "the web application's archive folders go unsaid");
  t.match(out, '\n     not used: /etc/default/opensearch OPENSEARCH_HOME: holds a control character\n');
});
