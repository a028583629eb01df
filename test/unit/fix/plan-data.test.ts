/** The data the checks attach to their actions so fix can apply them safely. */
import t from 'tap';
import { baseLimitDocument, masterNodeWithSme, BASE_LIMIT_DEFAULTS } from '../../../src/checks/index.ts';
import { sha256 } from '../../../src/base/hash.ts';
import { cluster } from '../../helpers/checks/facts.ts';
import { confirmQuestion, planSize } from '../../../src/fix/plan.ts';
import { agrees } from '../../../src/cli/prompt.ts';
import type { Report } from '../../../src/model/index.ts';

t.test('put-document: create when absent, seq_no/primary_term of the read document when replacing', async (t) => {
  const absent = { statusCode: 404, body: { _index: '.sm_sme_limits_user', _id: 'base_limit', found: false } };
  const create = baseLimitDocument.run(cluster({ api: { baseLimitEndpoint: absent, baseLimitDoc: absent } }))
    .actions[0]!;
  t.equal(create.op_type, 'create');
  t.equal(create.if_seq_no, undefined);
  const stored = { ...structuredClone(BASE_LIMIT_DEFAULTS), max_qsize: 'lots' };
  const read = {
    statusCode: 200,
    body: {
      _index: '.sm_sme_limits_user',
      _id: 'base_limit',
      _seq_no: 7,
      _primary_term: 2,
      found: true,
      _source: stored,
    },
  };
  const replace = baseLimitDocument.run(
    cluster({ api: { baseLimitEndpoint: { statusCode: 200, body: stored }, baseLimitDoc: read } }),
  ).actions[0]!;
  t.match(replace, { if_seq_no: 7, if_primary_term: 2 });
  t.equal(replace.op_type, undefined);
});

t.test('set-yaml carries the sha256 of the text its diff was computed against', async (t) => {
  const facts = cluster({
    nodes: [{ name: 'm1', ip: '10.0.0.11', roles: ['cluster_manager'], sme: true, plugins: [] }],
  });
  const a = masterNodeWithSme.run(facts).actions.find((x) => x.type === 'set-yaml')!;
  t.equal(a.base_sha256, sha256(facts.hosts.find((h) => h.host === 'm1')!.engineYml!.text));
});

t.test('the confirmation question counts actions, hosts and clusters', async (t) => {
  const act = (host?: string) => ({
    type: 'put-settings' as const,
    status: 'planned' as const,
    ...(host ? { host } : {}),
  });
  const r = {
    clusters: [
      { checks: [{ actions: [act(), act('m1'), act('m1')] }] },
      { checks: [{ actions: [act('m2')] }] },
      { checks: [{ actions: [] }] },
    ],
  } as unknown as Report;
  t.same(planSize(r), { actions: 4, hosts: 2, clusters: 2 });
  t.equal(confirmQuestion(planSize(r)), 'Apply 4 actions on 2 hosts in 2 clusters? [y/N] ');
  for (const [answer, yes] of [
    ['y', true],
    ['Yes', true],
    [' yes ', true],
    ['', false],
    ['n', false],
    ['yess', false],
    ['ja', false],
  ] as const) {
    t.equal(agrees(answer), yes, JSON.stringify(answer));
  }
});
