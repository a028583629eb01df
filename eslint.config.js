// ESLint (flat config): the recommended JavaScript and typescript-eslint rules over the sources, tests and scripts
// (the lab's, in lab/, too).
// Layout is Prettier's job (`npm run format`); layering is dependency-cruiser's (`npm run boundaries`).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

// src/cli says things on standard error through sayTo (context.ts) only: one place prefixes, escapes and redacts
const stderrThroughSay = {
  meta: { type: 'problem', messages: { direct: 'write standard error through sayTo (src/cli/context.ts)' } },
  create: (context) => ({
    "CallExpression > MemberExpression.callee[property.name='write'] > MemberExpression.object[property.name='stderr']":
      (node) => context.report({ node, messageId: 'direct' }),
  }),
};

export default tseslint.config(
  { ignores: ['dist/', 'lab/dist/', 'node_modules/', '.lab/', '.tap/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // `_`-prefixed parameters are deliberate (commander's action signature, fakes)
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/no-unused-expressions': ['error', { allowShortCircuit: true, allowTernary: true }],
      // a poll loop's first value says what the state is before the first answer, even when every path overwrites it
      'no-useless-assignment': 'off',
    },
  },
  {
    files: ['src/cli/**/*.ts'],
    ignores: ['src/cli/context.ts'],
    plugins: { 'smdoctor-stderr': { rules: { 'through-say': stderrThroughSay } } },
    rules: { 'smdoctor-stderr/through-say': 'error' },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      // a REST answer's body is unknown until a schema says otherwise (cluster/shapes.ts, `shaped`): no type argument
      // on request(), no cast of a body, so a foreign answer is an error naming its field, never a TypeError later
      'no-restricted-syntax': [
        'error',
        ...[
          "CallExpression[callee.property.name='request'][typeArguments]",
          ":matches(TSAsExpression, TSTypeAssertion)[expression.type='MemberExpression'][expression.property.name='body']",
          ":matches(TSAsExpression, TSTypeAssertion)[expression.type='Identifier'][expression.name='body']",
        ].map((selector) => ({
          selector,
          message: 'read an API answer through a schema: shaped(Schema, res.body, what) (src/cluster/shapes.ts)',
        })),
      ],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/cli/**'],
    rules: {
      // the CLI reads the environment and the working directory once and passes them down (CliContext)
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'take the env the CLI read (CliContext.env) as a parameter' },
        { object: 'process', property: 'cwd', message: 'take the cwd the CLI read (CliContext.cwd) as a parameter' },
      ],
    },
  },
  {
    files: ['test/**/*.ts', 'lab/test/**/*.ts'],
    rules: {
      // assertions read loosely typed JSON, match ANSI escapes and exact column layouts
      '@typescript-eslint/no-explicit-any': 'off',
      'no-control-regex': 'off',
      'no-regex-spaces': 'off',
    },
  },
  {
    files: ['scripts/**/*.mjs'],
    // zx scripts: zx provides these globals at run time
    languageOptions: {
      globals: {
        $: 'readonly',
        argv: 'readonly',
        fs: 'readonly',
        path: 'readonly',
        os: 'readonly',
        chalk: 'readonly',
        echo: 'readonly',
      },
    },
  },
);
