// ESLint (flat config): the recommended JavaScript and typescript-eslint rules over the sources, tests and scripts
// (the lab's, in lab/, too).
// Layout is Prettier's job (`npm run format`); layering is dependency-cruiser's (`npm run boundaries`).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

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
