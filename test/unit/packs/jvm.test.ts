/** jvm_option as the engine's launcher reads jvm.options (OpenSearch's JvmOptionsParser): prefixes, comments, later files win. */
import t from 'tap';
import { jdkMajor, jvmOption } from '../../../src/packs/index.ts';
import type { PackHostReads } from '../../../src/model/index.ts';

const reads = (
  main: string,
  d: Record<string, string> = {},
  release: string | null = 'JAVA_VERSION="17.0.2"\n',
): PackHostReads => ({
  files: {},
  sysctls: {},
  jvmOptions: { text: main },
  jvmOptionsD: Object.fromEntries(Object.entries(d).map(([k, v]) => [k, { text: v }])),
  jdkRelease: { text: release },
});

t.test('the effective value', async (t) => {
  const cases: Array<[string, PackHostReads, string, unknown]> = [
    ['plain, as bytes', reads('-Xms1g\n-Xmx1g\n'), '-Xmx', 1024 ** 3],
    ['comments and blanks skipped', reads('# -Xmx8g\n\n-Xmx2g\n'), '-Xmx', 2 * 1024 ** 3],
    ['later line wins', reads('-Xmx1g\n-Xmx512m\n'), '-Xmx', 512 * 1024 ** 2],
    [
      'jvm.options.d wins, in name order',
      reads('-Xmx1g\n', { 'b.options': '-Xmx3g', 'a.options': '-Xmx2g' }),
      '-Xmx',
      3 * 1024 ** 3,
    ],
    ['N: for another JDK is skipped', reads('-Xmx1g\n8:-Xmx4g\n'), '-Xmx', 1024 ** 3],
    ['N-: applies from N', reads('-Xmx1g\n11-:-Xmx4g\n'), '-Xmx', 4 * 1024 ** 3],
    ['N-M: outside the range', reads('-Xmx1g\n9-16:-Xmx4g\n'), '-Xmx', 1024 ** 3],
    ['-XX:+Flag', reads('-XX:+UseG1GC\n'), '-XX:UseG1GC', true],
    ['-XX:-Flag', reads('-XX:+UseG1GC\n-XX:-UseG1GC\n'), '-XX:UseG1GC', false],
    ['-XX:Name=size', reads('-XX:MaxDirectMemorySize=1g\n'), '-XX:MaxDirectMemorySize', 1024 ** 3],
    ['-Dname=value', reads('-Dfile.encoding=UTF-8\n'), '-Dfile.encoding', 'UTF-8'],
    ['absent', reads('-Xms1g\n'), '-Xmx', undefined],
    ['1.8 is JDK 8', reads('8:-Xmx4g\n', {}, 'JAVA_VERSION="1.8.0_292"'), '-Xmx', 4 * 1024 ** 3],
  ];
  for (const [name, r, option, want] of cases) t.same(jvmOption(r, option), { ok: true, value: want }, name);
});

t.test('unknown, never guessed', async (t) => {
  const noJdk = jvmOption(reads('-Xmx1g\n17-:-Xmx4g\n', {}, null), '-Xmx');
  t.equal(noJdk.ok, false, 'a version-conditional line with no jdk/release');
  t.match(noJdk, { error: /depends on the JDK version/ });
  t.same(
    jvmOption(reads('-Xmx1g\n17-:-Xss1m\n', {}, null), '-Xmx'),
    { ok: true, value: 1024 ** 3 },
    'another option does not matter',
  );
  t.equal(jvmOption({ files: {}, sysctls: {} }, '-Xmx').ok, false, 'not read');
  t.equal(jvmOption({ ...reads(''), jvmOptions: { text: null, error: 'exit 1' } }, '-Xmx').ok, false, 'unreadable');
  t.equal(jdkMajor('JAVA_VERSION="21"'), 21);
});
