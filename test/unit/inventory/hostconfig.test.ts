import t from 'tap';
import { userInfo } from 'node:os';
import { hostConfig, ansibleBool } from '../../../src/inventory/hostconfig.ts';
import { parseInventory } from '../../../src/inventory/load.ts';

const env = { HOME: '/home/tester' };

t.test('defaults of the PRODUCT.md variable table', async (t) => {
  const inv = parseInventory('[g]\nnode1\n', '/etc/smd/inv.ini');
  t.strictSame(hostConfig(inv, 'node1', env), {
    name: 'node1',
    connection: 'ssh',
    address: 'node1',
    port: 22,
    user: userInfo().username,
    privateKeyFile: undefined,
    become: false,
    knownHostsFile: '/home/tester/.ssh/known_hosts',
    hostKeyChecking: 'strict',
    engine: 'opensearch',
    searchHome: '/app/opensearch',
    webHome: '/app/opensearch-dashboards',
    engineUser: 'opensearch',
    restartCommand: 'systemctl restart {service}',
    procRoot: '/proc',
    enginePidFile: '/var/run/opensearch/opensearch.pid',
    apiUrl: 'https://node1:9200',
    apiUsername: undefined,
    apiPasswordEnv: 'SMDOCTOR_API_PASSWORD',
    apiPasswordFile: undefined,
    apiCaFile: undefined,
    apiInsecure: false,
    inDashboardsGroup: false,
    groups: ['g'],
  });
});

t.test('every variable set, relative paths against the inventory directory', async (t) => {
  const yml = `dashboards:\n  hosts:\n    n1:\n      ansible_host: 10.0.0.5\n      ansible_port: "2222"\n      ansible_user: ops\n      ansible_ssh_private_key_file: keys/id\n      ansible_become: "yes"\n      ssh_known_hosts_file: ~/kh\n      ssh_host_key_checking: accept-new\n      engine: elasticsearch\n      engine_user: es\n      restart_command: "service {service} restart"\n      proc_root: /host/proc\n      engine_pid_file: /run/es.pid\n      api_url: https://c1:9200\n      api_username: admin\n      api_password_env: PW\n      api_password_file: pw.txt\n      api_ca_file: /etc/ca.pem\n      api_insecure: True\n      ansible_connection: local\n`;
  const c = hostConfig(parseInventory(yml, '/srv/inv/hosts.yml'), 'n1', env);
  t.match(c, {
    connection: 'local',
    address: '10.0.0.5',
    port: 2222,
    user: 'ops',
    privateKeyFile: '/srv/inv/keys/id',
    become: true,
    knownHostsFile: '/home/tester/kh',
    hostKeyChecking: 'accept-new',
    engine: 'elasticsearch',
    searchHome: '/app/elasticsearch',
    webHome: '/app/elasticsearch-dashboards',
    engineUser: 'es',
    restartCommand: 'service {service} restart',
    procRoot: '/host/proc',
    enginePidFile: '/run/es.pid',
    apiUrl: 'https://c1:9200',
    apiUsername: 'admin',
    apiPasswordEnv: 'PW',
    apiPasswordFile: '/srv/inv/pw.txt',
    apiCaFile: '/etc/ca.pem',
    apiInsecure: true,
    inDashboardsGroup: true,
  });
});

t.test('Ansible booleans', async (t) => {
  for (const v of [true, 'yes', 'True', 'on', 1, '1', 'y']) t.equal(ansibleBool(v, 'x', 'h'), true, String(v));
  for (const v of [false, 'no', 'False', 'off', 0, '0', undefined, null])
    t.equal(ansibleBool(v, 'x', 'h'), false, String(v));
  t.throws(() => ansibleBool('maybe', 'ansible_become', 'h'), { code: 'INPUT' });
});

t.test('bad values are input errors', async (t) => {
  const bad: Array<[string, RegExp]> = [
    ['h ssh_host_key_checking=loose', /strict, accept-new or off/],
    ['h ansible_port=99999', /ansible_port/],
    ['h ansible_become=maybe', /boolean/],
  ];
  for (const [line, msg] of bad)
    t.throws(
      () => hostConfig(parseInventory(`[g]\n${line}\n`, 'b.ini'), 'h', env),
      { code: 'INPUT', message: msg },
      line,
    );
  t.throws(() => hostConfig(parseInventory('[g]\nh\n[g:vars]\nansible_host=""\n', 'b.ini'), 'h', env), {
    code: 'INPUT',
    message: /empty ansible_host/,
  });
  t.throws(() => hostConfig(parseInventory('[g]\nh\n', 'b.ini'), 'nope', env), { code: 'INPUT' });
});

t.test(
  'ssh_host_key_checking: off unquoted (YAML false) is off; true is strict, as Ansible host_key_checking',
  async (t) => {
    const inv = (v: string) =>
      parseInventory(`all:\n  hosts:\n    h:\n      ssh_host_key_checking: ${v}\n`, '/i/inv.yml');
    t.equal(hostConfig(inv('off'), 'h', env).hostKeyChecking, 'off');
    t.equal(hostConfig(inv('false'), 'h', env).hostKeyChecking, 'off');
    t.equal(hostConfig(inv('"off"'), 'h', env).hostKeyChecking, 'off');
    t.equal(hostConfig(inv('true'), 'h', env).hostKeyChecking, 'strict');
    t.equal(
      hostConfig(parseInventory('[g]\nh ssh_host_key_checking=off\n', '/i/inv.ini'), 'h', env).hostKeyChecking,
      'off',
    );
  },
);

t.test('the layout variables: absolute and plain, or an error naming the host', async (t) => {
  const inv = parseInventory(
    '[g]\nn1 engine_home=/usr/share/opensearch/ engine_config_dir=/etc/opensearch web_config_dir="/srv/osd conf" search_home=/x\n',
    '/etc/smd/inv.ini',
  );
  t.match(hostConfig(inv, 'n1', env), {
    engineHome: '/usr/share/opensearch',
    engineConfigDir: '/etc/opensearch',
    webConfigDir: '/srv/osd conf',
    searchHomeGiven: true,
  });
  t.notOk('webHomeGiven' in hostConfig(inv, 'n1', env), 'web_home not written: found on the host');
  for (const bad of ['etc/opensearch', '/etc/../shadow', '/etc/./x'])
    t.throws(
      () => hostConfig(parseInventory(`[g]\nn1 engine_config_dir="${bad}"\n`, '/i.ini'), 'n1', env),
      /host 'n1': engine_config_dir must be an absolute path/,
      bad,
    );
  const yml = 'all:\n  hosts:\n    n1:\n      web_config_dir: "/etc/x\\nrm -rf /"\n';
  t.throws(() => hostConfig(parseInventory(yml, '/i.yml'), 'n1', env), /web_config_dir must be an absolute path/);
});
