import t from 'tap';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { runCli } from '../../../test/helpers/cli.ts';
import { ssh, curl, json } from '../helpers/lab.ts';

const run = (...args: string[]) => runCli(args);

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

t.test(
  'lab up --scenario broken via the CLI: all five causes visible with curl and ssh; lab down leaves nothing',
  async (t) => {
    const dir = t.testdir({ 'user-file.txt': 'mine' });
    t.teardown(() => run('lab', 'down', '--dir', dir));
    const up = await run('lab', 'up', '--dir', dir, '--scenario', 'broken');
    t.equal(up.code, 0, up.err);
    const lines = up.out.trim().split('\n');
    t.equal(lines.at(-1), join(dir, 'inventory.yml'), 'last line is the inventory path');
    t.match(up.out, /not a search engine/);
    t.match(
      up.out,
      `export SMDOCTOR_INVENTORY='${join(dir, 'inventory.yml')}'`,
      'says how to make it the default inventory',
    );

    const inv = parse(await readFile(join(dir, 'inventory.yml'), 'utf8'));
    const vars = inv.all.vars;
    const hosts: Record<string, { ansible_host: string; search_home: string; web_home: string }> = {
      ...inv.all.children.cluster_managers.hosts,
      ...inv.all.children.data.hosts,
      ...inv.all.children.dashboards.hosts,
    };
    t.same(Object.keys(hosts).sort(), ['d1', 'd2', 'd3', 'm1', 'm2', 'm3', 'web1']);
    const password = (await readFile(vars.api_password_file, 'utf8')).trim();
    const api = (p: string) => curl(vars.api_ca_file, password, `${vars.api_url}${p}`);
    const on = (h: string, cmd: string) =>
      ssh(
        {
          keyFile: vars.ansible_ssh_private_key_file,
          knownHostsFile: vars.ssh_known_hosts_file,
          address: hosts[h]!.ansible_host,
          sshPort: vars.ansible_port,
        },
        cmd,
      );

    // 1 base-limit-document
    t.match(await api('/.sm_sme_limits_user/_doc/base_limit'), { status: 404, body: /"found":false/ });
    t.not((await api('/_core/limits_user/base_limit')).status, 200);
    // 2 master-node-with-sme
    t.match(
      (await on('m1', `grep node_with_sme ${hosts.m1!.search_home}/config/opensearch.yml`)).stdout,
      /node\.attr\.node_with_sme: true/,
    );
    const attrs = json<Array<Record<string, string>>>((await api('/_cat/nodeattrs?format=json')).body);
    t.match(
      attrs.find((a) => a.node === 'm1' && a.attr === 'node_with_sme'),
      { value: 'true' },
    );
    // 3 dashboards-hosts lists a master
    const nodes = json<Array<Record<string, string>>>((await api('/_cat/nodes?format=json&h=name,ip,node.roles')).body);
    t.equal(nodes.length, 6);
    const dash = (await on('web1', `cat ${hosts.web1!.web_home}/config/opensearch_dashboards.yml`)).stdout;
    t.match(dash, `https://${hosts.m1!.ansible_host}:9200`);
    t.match(
      nodes.find((n) => n.ip === hosts.m1!.ansible_host),
      { 'node.roles': 'cluster_manager' },
    );
    // 4 master-plugins
    const plugins = json<Array<Record<string, string>>>((await api('/_cat/plugins?format=json')).body);
    t.ok(plugins.some((p) => p.name === 'm2' && p.component === 'sm-job-scheduler'));
    t.match(
      (await on('m2', `${hosts.m2!.search_home}/bin/opensearch-keystore list`)).stdout,
      /^jobscheduler\.email\.pass$/m,
    );
    // 5 limits-index-replicas
    const settings = json<Record<string, { settings: { index: Record<string, string> } }>>(
      (await api('/.sm_sme_limits_user/_settings')).body,
    );
    t.equal(settings['.sm_sme_limits_user']!.settings.index.auto_expand_replicas, 'false');

    const st = await run('lab', 'status', '--dir', dir, '--format', 'json');
    t.equal(st.code, 0);
    const status = json<{
      emulator: boolean;
      clusters: Array<{ nodes: Array<{ name: string; state: string }>; web_hosts: unknown[] }>;
    }>(st.out);
    t.equal(status.emulator, true);
    t.same(
      status.clusters[0]!.nodes.map((n) => n.state),
      Array(6).fill('up'),
    );
    t.match(
      (await run('lab', 'status', '--dir', dir, '--format', 'text')).out,
      /m1\s+127\.\S+:2222\s+up\s+cluster_manager\n/,
    );

    const again = await run('lab', 'up', '--dir', dir, '--scenario', 'healthy');
    t.equal(again.code, 2);
    t.match(again.err, /lab already up in .*: run smdoctor lab down --dir/);

    const pidFiles = [
      join(dir, 'run', 'daemon.pid'),
      ...Object.keys(hosts).map((h) => join(dir, 'nodes', h, 'sshd', 'sshd.pid')),
    ];
    const pids = await Promise.all(pidFiles.map(async (f) => Number((await readFile(f, 'utf8')).trim())));
    t.equal(pids.filter(alive).length, 8, 'daemon and 7 sshds run');
    const down = await run('lab', 'down', '--dir', dir);
    t.equal(down.code, 0);
    t.match(down.out, /stopped \(8 processes/);
    t.same(pids.filter(alive), [], 'no process left behind');
    t.equal(await readFile(join(dir, 'user-file.txt'), 'utf8'), 'mine', 'user files kept');
    t.ok(await readFile(join(hosts.m1!.search_home, 'config', 'opensearch.yml'), 'utf8'), 'trees kept');
    t.match((await run('lab', 'down', '--dir', dir)).out, /not up/);
    t.match((await run('lab', 'status', '--dir', dir, '--format', 'text')).out, /not up/);
  },
);

t.test('a bad scenario file is an input error with file:line', async (t) => {
  const dir = t.testdir({ 'bad.yml': 'name: x\nnodes:\n  - name: a\n    roles: 3\nindices: []\n' });
  const r = await run('lab', 'up', '--dir', join(dir, 'lab'), '--scenario', join(dir, 'bad.yml'));
  t.equal(r.code, 2);
  t.match(r.err, `${join(dir, 'bad.yml')}:4`);
});
