import { resolve } from 'node:path';
import { Command, CommanderError } from 'commander';
import { exitCodeFor, formatError, SmdoctorError, EXIT } from '../base/errors.ts';
import { processContext, sayTo, type CliContext } from './context.ts';
import { VERSION } from '../base/version.ts';
import { escapeControls, redactText } from '../text/index.ts';
import { withRun } from '../base/run-scope.ts';
import { checkCreatableDir, checkWritable } from './output.ts';
import { expandHome } from '../base/backup.ts';
import { maxFileMib } from '../base/limits.ts';
import { addFlags, given, type Flag } from './flag.ts';
import {
  AUDIT,
  DIFF,
  EXPORT,
  FIX,
  INVENTORY_CMD,
  LAB_DOWN,
  LAB_STATUS,
  LAB_UP,
  MERGE,
  MIGRATE_EXPLAIN,
  MIGRATE_STORED,
  PACK_LIST,
  SERVE,
} from './args.ts';
import { HELP } from './help.ts';

// Each command's module (and with it ssh2, execa, the REST client, the lab) is loaded only when that command
// runs, so --version and --help start as fast as commander itself. The running lab's inventory is the default.
type Cmds = typeof import('./commands/audit.ts') &
  typeof import('./commands/fix.ts') &
  typeof import('./commands/inventory.ts') &
  typeof import('./commands/lab.ts') &
  typeof import('./commands/migrate-explain.ts') &
  typeof import('./commands/migrate-stored.ts') &
  typeof import('./commands/export.ts') &
  typeof import('./commands/diff.ts') &
  typeof import('./commands/merge.ts') &
  typeof import('./commands/serve.ts') &
  typeof import('./commands/pack.ts');
const lab = async () => (await import('./lab-default.ts')).withLabDefault;
// the hosts' ssh configuration as read and the jump hosts' connections are the run's, shared by it and ended with it
const withRoutes = async <T>(c: CliContext, run: (c: CliContext) => Promise<T>): Promise<T> => {
  const routes = (await import('../reach/index.ts')).newRouteCache();
  try {
    return await run({ ...c, routes });
  } finally {
    await routes.close();
  }
};
const runAuditCommand: Cmds['runAuditCommand'] = async (c, o, ...a) =>
  withRoutes(c, async (c) => (await import('./commands/audit.ts')).runAuditCommand(c, await (await lab())(c, o), ...a));
const runFix: Cmds['runFix'] = async (c, o, ...a) =>
  withRoutes(c, async (c) => (await import('./commands/fix.ts')).runFix(c, await (await lab())(c, o), ...a));
const runInventory: Cmds['runInventory'] = async (c, o) =>
  (await import('./commands/inventory.ts')).runInventory(c, await (await lab())(c, o));
const runExport: Cmds['runExportAnsible'] = async (c, o) =>
  withRoutes(c, async (c) => (await import('./commands/export.ts')).runExportAnsible(c, await (await lab())(c, o)));
const runLab: Cmds['runLab'] = async (...a) => (await import('./commands/lab.ts')).runLab(...a);
const runMigrateExplain: Cmds['runMigrateExplain'] = async (c, o, ...a) =>
  (await import('./commands/migrate-explain.ts')).runMigrateExplain(c, await (await lab())(c, o), ...a);
const runStored: Cmds['runStored'] = async (c, kind, o) =>
  (await import('./commands/migrate-stored.ts')).runStored(c, kind, await (await lab())(c, o));

const runPackValidate: Cmds['runPackValidate'] = async (...a) =>
  (await import('./commands/pack.ts')).runPackValidate(...a);
const runPackList: Cmds['runPackList'] = async (...a) => (await import('./commands/pack.ts')).runPackList(...a);
const runDiff: Cmds['runDiff'] = async (...a) => (await import('./commands/diff.ts')).runDiff(...a);
// serve's routes are those of its inventory in force: each reload has its own
const runServe: Cmds['runServe'] = async (c, o) =>
  (await import('./commands/serve.ts')).runServe(c, await (await lab())(c, o));
const runMerge: Cmds['runMerge'] = async (...a) => (await import('./commands/merge.ts')).runMerge(...a);

/** Where results go is checked before anything is read or changed: a bad -o must not be found after a fix. */
async function preflight(ctx: CliContext, action: Command): Promise<void> {
  // the size limit is read deep in gather and transport: a bad value stops the run here, not on the first read
  maxFileMib(ctx.env);
  const o = action.optsWithGlobals<{ output?: unknown; backupDir?: unknown; apply?: unknown; history?: unknown }>();
  if (typeof o.output === 'string') await checkWritable(resolve(ctx.cwd, o.output));
  // diff only reads --history; the others keep their report there
  if (typeof o.history === 'string' && action.name() !== 'diff')
    await checkCreatableDir(resolve(ctx.cwd, o.history), '--history');
  const writesBackups = action.name() === 'fix' || o.apply === true;
  if (writesBackups && typeof o.backupDir === 'string')
    await checkCreatableDir(expandHome(o.backupDir, ctx.env, ctx.cwd), '--backup-dir');
}

export function buildProgram(ctx: CliContext, setExit: (code: number) => void): Command {
  const program = new Command('smdoctor')
    .description(HELP.smdoctor)
    .version(VERSION)
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => ctx.stdout.write(s),
      writeErr: (s) => sayTo(ctx.stderr).raw(s),
    });
  program.hook('preAction', (_p, action) => preflight(ctx, action));
  // a command: its help and its flags, in the order the help lists them
  const leaf = <F extends readonly Flag[]>(parent: Command, name: keyof typeof HELP, flags: F) =>
    addFlags(parent.command(name.replace(/^.* /, '')).description(HELP[name]), flags);
  const done = async (code: Promise<number>): Promise<void> => setExit(await code);

  leaf(program, 'audit', AUDIT).action((_o, cmd: Command) => done(runAuditCommand(ctx, given(cmd, AUDIT))));
  leaf(program, 'fix', FIX).action((_o, cmd: Command) => done(runFix(ctx, given(cmd, FIX))));

  const migrate = program.command('migrate').description(HELP.migrate);
  leaf(migrate, 'migrate explain', MIGRATE_EXPLAIN)
    .argument('[query]', "the SML query, or '-' for standard input")
    .action((query: string | undefined, _o, cmd: Command) =>
      done(runMigrateExplain(ctx, given(cmd, MIGRATE_EXPLAIN), query)),
    );
  for (const kind of ['jobs', 'dashboards'] as const)
    leaf(migrate, `migrate ${kind}`, MIGRATE_STORED).action((_o, cmd: Command) =>
      done(runStored(ctx, kind, given(cmd, MIGRATE_STORED))),
    );

  const exp = program.command('export').description(HELP.export);
  leaf(exp, 'export ansible', EXPORT).action((_o, cmd: Command) => done(runExport(ctx, given(cmd, EXPORT))));

  const pack = program.command('pack').description(HELP.pack);
  pack
    .command('validate')
    .description(HELP['pack validate'])
    .argument('<file...>', 'pack files, waivers files or builtin:NAME')
    .action((files: string[]) => done(runPackValidate(ctx, files)));
  leaf(pack, 'pack list', PACK_LIST).action((_o, cmd: Command) => done(runPackList(ctx, given(cmd, PACK_LIST))));

  const lab = program.command('lab').description(HELP.lab);
  leaf(lab, 'lab up', LAB_UP).action((_o, cmd: Command) => done(runLab(ctx, 'up', given(cmd, LAB_UP))));
  leaf(lab, 'lab status', LAB_STATUS).action((_o, cmd: Command) => done(runLab(ctx, 'status', given(cmd, LAB_STATUS))));
  leaf(lab, 'lab down', LAB_DOWN).action((_o, cmd: Command) => done(runLab(ctx, 'down', given(cmd, LAB_DOWN))));

  leaf(program, 'inventory', INVENTORY_CMD).action((_o, cmd: Command) =>
    done(runInventory(ctx, given(cmd, INVENTORY_CMD))),
  );
  leaf(program, 'diff', DIFF)
    .argument('[old]', 'the older JSON report')
    .argument('[new]', 'the newer JSON report')
    .action((oldFile: string | undefined, newFile: string | undefined, _o, cmd: Command) =>
      done(runDiff(ctx, oldFile, newFile, given(cmd, DIFF))),
    );
  leaf(program, 'serve', SERVE).action((_o, cmd: Command) => done(runServe(ctx, given(cmd, SERVE))));
  leaf(program, 'merge', MERGE)
    .argument('<reports...>', 'JSON reports of audit, one per shard')
    .action((files: string[], _o, cmd: Command) => done(runMerge(ctx, files, given(cmd, MERGE))));
  return program;
}

/** The only place that turns outcomes into exit codes. */
export function main(argv: string[], ctx: CliContext = processContext()): Promise<number> {
  // each command is a run: the secrets it reads are its own, not another run's in the same process
  return withRun(() => runMain(argv, ctx));
}

async function runMain(argv: string[], ctx: CliContext): Promise<number> {
  let code: number = EXIT.ok;
  const program = buildProgram(ctx, (c) => (code = c));
  try {
    if (argv.length <= 2) {
      program.outputHelp({ error: true });
      return EXIT.usage;
    }
    await program.parseAsync(argv);
    return code;
  } catch (err) {
    if (err instanceof CommanderError) {
      // help and version "errors" are successes; everything else is a usage error
      return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    const say = sayTo(ctx.stderr);
    say.raw(`${escapeControls(redactText(formatError(err)))}\n`);
    if (!(err instanceof SmdoctorError) && process.env.SMDOCTOR_DEBUG) say.raw(`${String(err)}\n`);
    return exitCodeFor(err);
  }
}
