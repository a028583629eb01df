import t from 'tap';
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
      [
        'PASS 1 base-limit-document',
        'FAIL 2 master-node-with-sme',
        'ERROR 3 dashboards-hosts',
        'FAIL 4 master-plugins',
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
