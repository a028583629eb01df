import t from 'tap';
import { editFile, removeCommand } from '../../../src/fix/steps-host.ts';
import { sha256 } from '../../../src/base/hash.ts';
import { setList, setScalar, unifiedDiff } from '../../../src/yamledit/index.ts';
import { fakeApi, fakeEnv, fakeHost, planned, type Log } from '../../helpers/fix/fakes.ts';

const YML = '/app/opensearch/config/opensearch.yml';
const ORIGINAL = '# cluster\nnode.name: m1\n# keep me\nnode.attr.node_with_sme: true # was on\n';
const DASH = '/app/opensearch-dashboards/config/opensearch_dashboards.yml';
const DASH_TEXT = 'opensearch.hosts:\n  - https://d1:9200 # data\n  - https://m1:9200\n';

function setYaml(text = ORIGINAL) {
  const edit = setScalar(text, 'node.attr.node_with_sme', false);
  return planned({
    type: 'set-yaml',
    host: 'm1',
    path: YML,
    key: 'node.attr.node_with_sme',
    value: false,
    diff: unifiedDiff(YML, text, edit.text),
    base_sha256: sha256(text),
  });
}

t.test('set-yaml: re-read, back up, then write; comments kept', async (t) => {
  const log: Log = [];
  const host = fakeHost('m1', log, { [YML]: ORIGINAL });
  const env = fakeEnv(
    log,
    fakeApi(log, () => ({ statusCode: 500, body: {} })),
    [host],
  );
  const r = await editFile(setYaml(), env);
  t.equal(r.status, 'done');
  t.equal(r.backup, `/backups/20240101T000000Z/m1${YML}`);
  t.same(log, [`read m1 ${YML}`, `backup m1 ${YML}`, `write m1 ${YML}`], 'backup before the write');
  t.equal(host.files.get(YML), '# cluster\nnode.name: m1\n# keep me\nnode.attr.node_with_sme: false # was on\n');
});

t.test('set-hosts: the list edit is recomputed', async (t) => {
  const log: Log = [];
  const host = fakeHost('web1', log, { [DASH]: DASH_TEXT });
  const edit = setList(DASH_TEXT, 'opensearch.hosts', ['https://d1:9200']);
  const a = planned({
    type: 'set-hosts',
    host: 'web1',
    path: DASH,
    key: 'opensearch.hosts',
    value: ['https://d1:9200'],
    diff: unifiedDiff(DASH, DASH_TEXT, edit.text),
    base_sha256: sha256(DASH_TEXT),
  });
  const r = await editFile(
    a,
    fakeEnv(
      log,
      fakeApi(log, () => ({ statusCode: 500, body: {} })),
      [host],
    ),
  );
  t.equal(r.status, 'done');
  t.equal(host.files.get(DASH), 'opensearch.hosts:\n  - https://d1:9200 # data\n');
});

t.test('set-yaml refuses to write when the file is not what the audit planned from', async (t) => {
  const cases: Array<{
    name: string;
    files: Record<string, string>;
    action: ReturnType<typeof setYaml>;
    error: RegExp;
  }> = [
    {
      name: 'changed since the audit',
      files: { [YML]: `${ORIGINAL}# edited by hand\n` },
      action: setYaml(),
      error: /changed since the audit/,
    },
    { name: 'gone', files: {}, action: setYaml(), error: /no longer exists/ },
    {
      name: 'diff differs from the plan',
      files: { [YML]: ORIGINAL },
      action: { ...setYaml(), diff: '--- tampered' },
      error: /no longer gives the planned diff/,
    },
  ];
  for (const c of cases) {
    const log: Log = [];
    const host = fakeHost('m1', log, c.files);
    const env = fakeEnv(
      log,
      fakeApi(log, () => ({ statusCode: 500, body: {} })),
      [host],
    );
    const r = await editFile(c.action, env);
    t.equal(r.status, 'failed', c.name);
    t.match(r.error, c.error, c.name);
    t.same(host.writes, [], `${c.name}: nothing written`);
    t.notOk(
      log.some((l) => l.startsWith('backup')),
      `${c.name}: no backup`,
    );
  }
});

t.test('remove commands: the planned text, exit codes decide', async (t) => {
  const cases = [
    { type: 'remove-plugin' as const, code: 0, status: 'done' },
    { type: 'remove-plugin' as const, code: 78, status: 'skipped', reason: 'already absent' },
    { type: 'remove-keystore-entry' as const, code: 78, status: 'skipped', reason: 'already absent' },
    { type: 'remove-keystore-entry' as const, code: 65, status: 'skipped', reason: /no keystore/ },
    { type: 'remove-plugin' as const, code: 65, status: 'failed', error: /exit 65/ },
    { type: 'remove-plugin' as const, code: 1, status: 'failed', error: /exit 1: ERROR: denied\napi_password: \*{8}/ },
  ];
  for (const c of cases) {
    const log: Log = [];
    const command = 'sudo -n /app/opensearch/bin/opensearch-plugin remove sm-sigma';
    const host = fakeHost('m2', log, {}, () => ({
      code: c.code,
      stdout: '',
      stderr: 'ERROR: denied\napi_password: hunter2\n',
    }));
    const r = await removeCommand(
      planned({ type: c.type, host: 'm2', command }),
      fakeEnv(
        log,
        fakeApi(log, () => ({ statusCode: 500, body: {} })),
        [host],
      ),
    );
    t.match(
      r,
      { status: c.status, ...(c.reason ? { reason: c.reason } : {}), ...(c.error ? { error: c.error } : {}) },
      `${c.type} exit ${c.code}`,
    );
    t.same(host.execs, [{ command }], 'exactly the planned command, no extra sudo');
    t.notMatch(r.error ?? '', /hunter2/, 'secrets never in errors');
  }
});
