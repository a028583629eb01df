import t from 'tap';
import { XMLValidator } from '../../helpers/report/xml.ts';
import { renderReport } from '../../../src/report/render.ts';
import { xmlEscape } from '../../../src/text/index.ts';
import { fixSample, sample } from '../../helpers/report/sample.ts';

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

t.test('junit after fix: the cluster action and the refusal are testcases, counted', async (t) => {
  const out = renderReport(fixSample(), 'junit');
  t.equal(XMLValidator(out), true, 'well-formed XML');
  // 6 checks + 2 cluster actions + 1 refusal; the refusal fails, the skipped action is skipped
  t.match(out, /<testsuites name="smdoctor fix" tests="9" failures="3" errors="1" skipped="2">/);
  t.match(
    out,
    /<testcase classname="prod [^"]+" name="cluster reset-allocation">\n +<system-out>reset-allocation: PUT \/_cluster\/settings[^<]*\[done\]<\/system-out>/,
  );
  t.match(out, /name="cluster reset-allocation">\n +<skipped message="refused by the pre-flight"\/>/);
  t.match(
    out,
    /name="fix refused">\n +<failure message="pre-flight: health is red \(2 unassigned shards\)" type="fail">pre-flight: health is red \(2 unassigned shards\)\ndrift: node n4 joined<\/failure>/,
  );
  t.match(out, /<testsuite name="https:\/\/10.0.1.1:9200" tests="3" failures="1" errors="0" skipped="1">/);
});
