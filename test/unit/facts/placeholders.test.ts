/**
 * `${…}` placeholders as the engine resolves them at start: the rules of OpenSearch's PropertyPlaceholder and
 * Settings.Builder.replacePropertyPlaceholders (source and commit named in src/facts/placeholders.ts), with the
 * environment of the running engine as its `getenv`.
 */
import t from 'tap';
import { resolvePlaceholders, resolveSetting, type EngineEnv } from '../../../src/facts/placeholders.ts';
import { configRoles } from '../../../src/facts/roles.ts';
import { parseYml } from '../../../src/facts/yml.ts';

const ENV = { NODE_ROLE: 'data', HOST: 'n1', EMPTY: '', INNER: 'ROLE', NODE_ROLE2: '${NODE_ROLE}', LOOP: '${LOOP}' };

t.test('resolvePlaceholders: the engine rules, table-driven', async (t) => {
  const cases: Array<[string, string, EngineEnv, ReturnType<typeof resolvePlaceholders>]> = [
    ['no placeholder', 'plain ${ text', ENV, { state: 'value', value: 'plain ${ text' }],
    ['from the environment', '${NODE_ROLE}', ENV, { state: 'value', value: 'data' }],
    ['inside text, several', 'a-${HOST}-${NODE_ROLE}-b', ENV, { state: 'value', value: 'a-n1-data-b' }],
    ['default when unset', '${MISSING:ingest}', ENV, { state: 'value', value: 'ingest' }],
    ['default after the first colon', '${MISSING:a:b}', ENV, { state: 'value', value: 'a:b' }],
    ['the variable wins over its default', '${NODE_ROLE:ingest}', ENV, { state: 'value', value: 'data' }],
    ['empty variable is a value, not unset', '${EMPTY:x}', ENV, { state: 'value', value: '' }],
    ['a name holding a placeholder', '${NODE_${INNER}}', ENV, { state: 'value', value: 'data' }],
    ['a resolved value is resolved again', '${NODE_ROLE2}', ENV, { state: 'value', value: 'data' }],
    ['unterminated: as written', '${NODE_ROLE', ENV, { state: 'value', value: '${NODE_ROLE' }],
    [
      'prompt.* missing: the whole value as written',
      'x ${HOST} ${prompt.text}',
      ENV,
      {
        state: 'value',
        value: 'x ${HOST} ${prompt.text}',
      },
    ],
    [
      'unset, no default: the engine refuses to start',
      '${MISSING}',
      ENV,
      {
        state: 'refused',
        message: "Could not resolve placeholder 'MISSING'",
      },
    ],
    [
      'circular',
      '${LOOP}',
      ENV,
      {
        state: 'refused',
        message: "Circular placeholder reference 'LOOP' in property definitions",
      },
    ],
    // PropertyPlaceholder adds `A:x` to its visited set and removes `A`: the same defaulted placeholder twice refuses
    [
      'a defaulted placeholder twice (the engine quirk)',
      '${M:x}${M:x}',
      ENV,
      {
        state: 'refused',
        message: "Circular placeholder reference 'M:x' in property definitions",
      },
    ],
    ['environment not read: unknown', '[${NODE_ROLE}]', null, { state: 'unknown', names: ['NODE_ROLE'] }],
    ['not read, even with a default', '${NODE_ROLE:data}', null, { state: 'unknown', names: ['NODE_ROLE'] }],
    ['not read, no placeholder: as written', 'data', null, { state: 'value', value: 'data' }],
    ['an inherited name is not a variable', '${constructor:d}', {}, { state: 'value', value: 'd' }],
  ];
  for (const [name, text, env, want] of cases) t.same(resolvePlaceholders(text, env), want, name);
});

t.test('a setting of the same file resolves a placeholder the environment does not', async (t) => {
  const setting = (k: string) => (k === 'node.name' ? 'n7' : undefined);
  t.same(resolvePlaceholders('${node.name}-x', {}, setting), { state: 'value', value: 'n7-x' });
  t.same(resolvePlaceholders('${node.name}', { 'node.name': 'env' }, setting), { state: 'value', value: 'env' });
});

t.test(
  'resolveSetting: lists element by element, empty scalars are no setting, other scalars as they are',
  async (t) => {
    t.same(resolveSetting(['${NODE_ROLE}', 'ingest'], ENV), { state: 'value', value: ['data', 'ingest'] });
    t.same(resolveSetting('${EMPTY}', ENV), { state: 'value', value: undefined });
    t.same(resolveSetting(true, null), { state: 'value', value: true });
    t.same(resolveSetting(['${NODE_ROLE}'], null), { state: 'unknown', names: ['NODE_ROLE'] });
  },
);

t.test('configRoles resolves node.roles and the legacy flags', async (t) => {
  const roles = (yml: string, env: EngineEnv) => configRoles(parseYml(yml).doc, env);
  t.same(roles("node.roles: ['${NODE_ROLE}']\n", { NODE_ROLE: 'cluster_manager' }), {
    state: 'value',
    value: ['cluster_manager'],
  });
  t.same(roles("node.roles: ['${NODE_ROLE}']\n", null), { state: 'unknown', names: ['NODE_ROLE'] });
  t.same(roles('node.roles: ${ROLES}\n', { ROLES: 'data,ingest' }), { state: 'value', value: ['data', 'ingest'] });
  t.same(roles('node.master: ${M:false}\n', {}), {
    state: 'value',
    value: ['data', 'ingest', 'remote_cluster_client'],
  });
  t.same(roles('node.roles: [data]\n', null), { state: 'value', value: ['data'] }, 'no placeholder: env not needed');
});

// a node's own file is hostile input: no depth, count or growth of placeholders may crash or hold up the audit
t.test('a hostile file: limits refuse the setting, never throw, and resolve linearly below them', async (t) => {
  const deep = (n: number) => '${'.repeat(n) + 'HOST' + '}'.repeat(n);
  t.match(resolvePlaceholders(deep(20_000), ENV), {
    state: 'limit',
    message: /nested more than 64 deep: not resolved/,
  });
  t.match(resolvePlaceholders(deep(100), ENV), { state: 'limit' });
  // nested names below the limit still follow the engine: the inner `${HOST}` gives `n1`, no variable `n1`
  t.same(resolvePlaceholders(deep(2), ENV), { state: 'refused', message: "Could not resolve placeholder 'n1'" });
  t.same(resolvePlaceholders('${A}'.repeat(10_000), { A: 'x' }), { state: 'value', value: 'x'.repeat(10_000) });
  t.match(resolvePlaceholders('${A}'.repeat(100_000), { A: 'x' }), {
    state: 'limit',
    message: /more than 10000 placeholders/,
  });
  // each level doubles: 2^40 characters if nothing stopped it
  const env: Record<string, string> = { B0: 'y'.repeat(1000) };
  for (let i = 1; i <= 40; i++) env[`B${i}`] = `\${B${i - 1}}\${B${i - 1}}`;
  t.match(resolvePlaceholders('${B40}', env), { state: 'limit' });
  t.match(resolveSetting(['ok', deep(20_000)], ENV), { state: 'limit' }, 'a list refuses with its element');
  // a value past the limits hides nothing: the file's text is not read as the value either
  t.match(configRoles(parseYml(`node.roles: ['${deep(5000)}']\n`).doc, ENV), { state: 'limit' });
});

t.test('the iterative resolver gives what the engine gives, prompt and quirks included', async (t) => {
  t.same(resolvePlaceholders('${A}${prompt.x}', { A: '${B}', B: 'z' }), { state: 'value', value: '${A}${prompt.x}' });
  t.same(resolvePlaceholders('a${X:${HOST}}b${HOST}', ENV), { state: 'value', value: 'an1bn1' });
  t.same(resolvePlaceholders('${NODE_${INNER}}-${NODE_${INNER}}', ENV), {
    state: 'refused',
    message: "Circular placeholder reference 'NODE_${INNER}' in property definitions",
  });
  t.same(resolvePlaceholders('x${A}$', { A: '$' }), { state: 'value', value: 'x$$' });
  t.same(resolvePlaceholders('${A}{B}', { A: '$' }), { state: 'value', value: '${B}' }, 'not scanned again');
  t.same(resolvePlaceholders('${A', { A: 'v' }), { state: 'value', value: '${A' });
  t.same(resolvePlaceholders('${A}', { A: '${prompt.y}' }), { state: 'value', value: '${prompt.y}' });
});
