import t from 'tap';
import { XMLValidator } from './xml.ts';
import { renderReport } from '../../src/report/index.ts';
import { xmlEscape } from '../../src/report/junit.ts';
import { sample } from './sample.ts';

t.test('junit: well formed, one testcase per check per cluster, counts right', async (t) => {
  const out = renderReport(sample(), 'junit');
  t.equal(XMLValidator(out), true, 'well-formed XML');
  t.equal((out.match(/<testcase /g) ?? []).length, 6);
  t.match(out, /<testsuites name="smdoctor audit" tests="6" failures="2" errors="1" skipped="1">/);
  t.match(out, '<testcase classname="prod &lt;&amp;&gt; &quot;one&quot;" name="2 master-node-with-sme">');
  t.match(
    out,
    /<failure message="node_with_sme is true on 1 master node" type="fail">[^<]*-node.attr.node_with_sme: true/,
  );
  t.match(out, /name="3 dashboards-hosts">\n +<error message="web host w1 is unreachable"/);
  t.match(out, /name="5 limits-index-replicas">\n +<skipped message=/);
  t.match(out, '<testcase classname="https://10.0.1.1:9200" name="1 base-limit-document"/>');
  t.match(out, /<system-out>d9: restart pending/);
});

t.test('xmlEscape: markup and characters XML cannot hold', async (t) => {
  t.equal(
    xmlEscape(`<a href="x">'&'</a>\u0000\u001b[31m`),
    '&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;[31m',
  );
});
