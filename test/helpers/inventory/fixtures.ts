/** Examples of Ansible's "How to build your inventory" page, and our own cases, each in INI and YAML. */
export interface Pair {
  name: string;
  ini: string;
  yaml: string;
}

export const docExamples: Pair[] = [
  {
    name: 'simple groups with an ungrouped host',
    ini: `mail.example.com\n\n[webservers]\nfoo.example.com\nbar.example.com\n\n[dbservers]\none.example.com\ntwo.example.com\nthree.example.com\n`,
    yaml: `ungrouped:\n  hosts:\n    mail.example.com:\nwebservers:\n  hosts:\n    foo.example.com:\n    bar.example.com:\ndbservers:\n  hosts:\n    one.example.com:\n    two.example.com:\n    three.example.com:\n`,
  },
  {
    name: 'a host in several groups, nested prod/test',
    ini: `mail.example.com\n\n[webservers]\nfoo.example.com\nbar.example.com\n\n[dbservers]\none.example.com\ntwo.example.com\nthree.example.com\n\n[east]\nfoo.example.com\none.example.com\ntwo.example.com\n\n[west]\nbar.example.com\nthree.example.com\n\n[prod:children]\neast\n\n[test:children]\nwest\n`,
    yaml: `ungrouped:\n  hosts:\n    mail.example.com:\nwebservers:\n  hosts:\n    foo.example.com:\n    bar.example.com:\ndbservers:\n  hosts:\n    one.example.com:\n    two.example.com:\n    three.example.com:\neast:\n  hosts:\n    foo.example.com:\n    one.example.com:\n    two.example.com:\nwest:\n  hosts:\n    bar.example.com:\n    three.example.com:\nprod:\n  children:\n    east:\ntest:\n  children:\n    west:\n`,
  },
  {
    name: 'numeric, stride and alphabetic ranges',
    ini: `[webservers]\nwww[01:50].example.com\n\n[odd]\nwww[01:50:2].example.com\n\n[databases]\ndb-[a:f].example.com\n\n[stride]\nn[0:10:2]\n`,
    yaml: `webservers:\n  hosts:\n    www[01:50].example.com:\nodd:\n  hosts:\n    www[01:50:2].example.com:\ndatabases:\n  hosts:\n    db-[a:f].example.com:\nstride:\n  hosts:\n    n[0:10:2]:\n`,
  },
  {
    name: 'host variables and aliases with ports',
    ini: `[atlanta]\nhost1 http_port=80 maxRequestsPerChild=808\nhost2 http_port=303 maxRequestsPerChild=909\njumper ansible_port=5555 ansible_host=192.0.2.50\nbadwolf.example.com:5309\n`,
    yaml: `atlanta:\n  hosts:\n    host1:\n      http_port: 80\n      maxRequestsPerChild: 808\n    host2:\n      http_port: 303\n      maxRequestsPerChild: 909\n    jumper:\n      ansible_port: 5555\n      ansible_host: 192.0.2.50\n    badwolf.example.com:5309:\n`,
  },
  {
    name: 'group variables',
    ini: `[atlanta]\nhost1\nhost2\n\n[atlanta:vars]\nntp_server=ntp.atlanta.example.com\nproxy=proxy.atlanta.example.com\n`,
    yaml: `atlanta:\n  hosts:\n    host1:\n    host2:\n  vars:\n    ntp_server: ntp.atlanta.example.com\n    proxy: proxy.atlanta.example.com\n`,
  },
  {
    name: 'inheriting variable values: group variables for groups of groups',
    ini: `[atlanta]\nhost1\nhost2\n\n[raleigh]\nhost2\nhost3\n\n[southeast:children]\natlanta\nraleigh\n\n[southeast:vars]\nsome_server=foo.southeast.example.com\nhalon_system_timeout=30\nself_destruct_countdown=60\nescape_pods=2\n\n[usa:children]\nsoutheast\nnortheast\nsouthwest\nnorthwest\n\n[northeast]\n[southwest]\n[northwest]\n`,
    yaml: `all:\n  children:\n    atlanta:\n      hosts:\n        host1:\n        host2:\n    raleigh:\n      hosts:\n        host2:\n        host3:\n    southeast:\n      children:\n        atlanta:\n        raleigh:\n      vars:\n        some_server: foo.southeast.example.com\n        halon_system_timeout: 30\n        self_destruct_countdown: 60\n        escape_pods: 2\n    usa:\n      children:\n        southeast:\n        northeast:\n        southwest:\n        northwest:\n`,
  },
  {
    name: 'all vars and group priority',
    ini: `[a_group]\nh1\n\n[b_group]\nh1\n\n[a_group:vars]\ntestvar=a\nansible_group_priority=10\n\n[b_group:vars]\ntestvar=b\n\n[all:vars]\ntestvar=all\nntp=ntp.example.com\n`,
    yaml: `all:\n  vars:\n    testvar: all\n    ntp: ntp.example.com\n  children:\n    a_group:\n      hosts:\n        h1:\n      vars:\n        testvar: a\n        ansible_group_priority: 10\n    b_group:\n      hosts:\n        h1:\n      vars:\n        testvar: b\n`,
  },
];

/** Our own cases: precedence by depth then name, host over group, typing of INI values. */
export const ownCases: Pair[] = [
  {
    name: 'child overrides parent; later name wins at equal depth; host wins over all',
    ini: `[zeta]\nh1 role=host\nh2\n\n[alpha]\nh1\nh2\n\n[parent:children]\nalpha\n\n[parent:vars]\nx=parent\ny=parent\n\n[alpha:vars]\nx=alpha\nrole=alpha\n\n[zeta:vars]\ny=zeta\nrole=zeta\n`,
    yaml: `zeta:\n  hosts:\n    h1:\n      role: host\n    h2:\n  vars:\n    y: zeta\n    role: zeta\nparent:\n  children:\n    alpha:\n      hosts:\n        h1:\n        h2:\n      vars:\n        x: alpha\n        role: alpha\n  vars:\n    x: parent\n    y: parent\n`,
  },
  {
    name: 'typed values: INI literals and YAML 1.1 scalars agree',
    ini: `[g]\nh1 n=5 f=1.5 b=True s="two words" l="[1, 'a']" d="{'k': None}" y=yes\n\n[g:vars]\nport=8080\nflag=False\nquoted="x"\nplain=hello world\n`,
    yaml: `g:\n  hosts:\n    h1:\n      n: 5\n      f: 1.5\n      b: true\n      s: two words\n      l: [1, a]\n      d: {k: null}\n      y: "yes"\n  vars:\n    port: 8080\n    flag: no\n    quoted: x\n    plain: hello world\n`,
  },
  {
    name: 'host declared twice keeps its first port; ungrouped host that joins a group leaves ungrouped',
    ini: `h1:2201\n\n[g]\nh1:2202\nh2 a=1\n\n[g2]\nh2 a=2\n`,
    yaml: `all:\n  hosts:\n    h1:2201:\n  children:\n    g:\n      hosts:\n        h1:2202:\n        h2: {a: 1}\n    g2:\n      hosts:\n        h2: {a: 2}\n`,
  },
];
