/** The barrel and re-export rules of .dependency-cruiser.cjs, judged by dependency-cruiser on small trees. */
import t, { type Test } from 'tap';
import { createRequire } from 'node:module';
import { cruise, type IForbiddenRuleType } from 'dependency-cruiser';

const config = createRequire(import.meta.url)('../../../.dependency-cruiser.cjs') as {
  forbidden: IForbiddenRuleType[];
};

/** The names of the rules a tree breaks (files: path → content, under a fresh directory). */
async function broken(t: Test, files: Record<string, string>): Promise<string[]> {
  const dir = t.testdir(nest(files));
  const r = await cruise(
    ['src'],
    { baseDir: dir, ruleSet: { forbidden: config.forbidden }, tsPreCompilationDeps: true, validate: true },
    { extensions: ['.ts', '.js'] },
  );
  if (typeof r.output === 'string') throw new Error(r.output);
  return [...new Set(r.output.summary.violations.map((v) => v.rule.name))].sort();
}

interface Dir {
  [name: string]: string | Dir;
}

/** tap's testdir takes folders as objects. */
function nest(files: Record<string, string>): Dir {
  const root: Dir = {};
  for (const [path, content] of Object.entries(files)) {
    const parts = path.split('/');
    let at: Dir = root;
    for (const p of parts.slice(0, -1)) at = (at[p] ??= {}) as Dir;
    at[parts.at(-1)!] = content;
  }
  return root;
}

const BARRELS = ['text', 'sml', 'yamledit', 'model', 'checks', 'packs', 'reach'];

for (const folder of BARRELS)
  t.test(`${folder}/ is entered only through its index.ts`, async (t) => {
    const tree = {
      [`src/${folder}/inner.ts`]: 'export const x = 1;\n',
      [`src/${folder}/index.ts`]: "export { x } from './inner.ts';\n",
    };
    const from = (file: string) => ({
      ...tree,
      'src/cli/a.ts': `import { x } from '../${folder}/${file}';\nexport const y = x;\n`,
    });
    t.same(await broken(t, from('inner.ts')), [`only-through-${folder}-index`], 'past the barrel');
    t.same(await broken(t, from('index.ts')), [], 'through it');
  });

const cases: Array<{ name: string; files: Record<string, string>; rules: string[] }> = [
  {
    name: 'a folder without a barrel is entered file by file',
    files: {
      'src/fix/run.ts': 'export const run = 1;\n',
      'src/cli/a.ts': "import { run } from '../fix/run.ts';\nexport const y = run;\n",
    },
    rules: [],
  },
  {
    name: 'a module re-exports no other module',
    files: {
      'src/base/hash.ts': 'export const sha256 = 1;\n',
      'src/checks/util.ts': "export { sha256 } from '../base/hash.ts';\n",
    },
    rules: ['no-re-exports'],
  },
  {
    name: 'not even one of its own folder',
    files: {
      'src/fix/api-error.ts': 'export const apiErrorText = 1;\n',
      'src/fix/steps-api.ts': "export { apiErrorText } from './api-error.ts';\n",
    },
    rules: ['no-re-exports'],
  },
  {
    name: "a barrel re-exports its own folder, not another's",
    files: {
      'src/text/redact.ts': 'export const redactText = 1;\n',
      'src/text/index.ts': "export { redactText } from './redact.ts';\n",
      'src/report/render.ts': 'export const renderReport = 1;\n',
      'src/report/index.ts':
        "export { renderReport } from './render.ts';\nexport { redactText } from '../text/index.ts';\n",
    },
    rules: ['barrel-of-its-folder'],
  },
  {
    name: 'a command file imports no other command file, statically or when it runs',
    files: {
      'src/cli/commands/audit.ts': 'export const auditSetup = 1;\n',
      'src/cli/commands/fix.ts': "import { auditSetup } from './audit.ts';\nexport const y = auditSetup;\n",
      'src/cli/commands/serve.ts': "export const z = async () => (await import('./audit.ts')).auditSetup;\n",
    },
    rules: ['commands-apart'],
  },
  {
    name: 'what commands share lives beside them in cli/, which the entry loads them from',
    files: {
      'src/cli/audit-session.ts': 'export const auditSession = 1;\n',
      'src/cli/commands/fix.ts':
        "import { auditSession } from '../audit-session.ts';\nexport const y = auditSession;\n",
      'src/cli/main.ts': "export const z = async () => (await import('./commands/fix.ts')).y;\n",
    },
    rules: [],
  },
  {
    name: "the package's face re-exports from anywhere",
    files: {
      'src/fix/run.ts': 'export const applyPlan = 1;\n',
      'src/index.ts': "export { applyPlan } from './fix/run.ts';\n",
    },
    rules: [],
  },
];

for (const c of cases) t.test(c.name, async (t) => t.same(await broken(t, c.files), c.rules));
