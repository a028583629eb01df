import { resolve } from 'node:path';
import { Command, CommanderError, Option } from 'commander';
import { exitCodeFor, formatError, SmdoctorError, EXIT } from '../base/errors.ts';
import { processContext, sayTo, type CliContext, type CommonOptions } from './context.ts';
import { VERSION } from '../base/version.ts';
import { escapeControls, redactText } from '../text/index.ts';
import { withRun } from '../base/run-scope.ts';
import { checkCreatableDir, checkWritable } from './output.ts';
import { expandHome } from '../base/backup.ts';
import { maxFileMib } from '../base/limits.ts';
import { DEFAULTS } from '../base/defaults.ts';
import { addCommon, addHistory, addInventory, addPackOptions, FLAGS, intervalSeconds, positiveInt } from './options.ts';

// Each command's module (and with it ssh2, execa, the REST client, the lab) is loaded only when that command
// runs, so --version and --help start as fast as commander itself. The running lab's inventory is the default.
type Cmds = typeof import('./commands/audit.ts') &
  typeof import('./commands/fix.ts') &
  typeof import('./commands/inventory.ts') &
  typeof import('./commands/lab.ts') &
  typeof import('./commands/migrate.ts') &
  typeof import('./commands/export.ts') &
  typeof import('./commands/diff.ts') &
  typeof import('./commands/merge.ts') &
  typeof import('./commands/serve.ts') &
  typeof import('./commands/pack.ts');
const lab = async () => (await import('./lab-default.ts')).withLabDefault;
// a jump host's connection is shared by a whole run, and ends with it
const closingJumps = async <T>(run: Promise<T>): Promise<T> => {
  try {
    return await run;
  } finally {
    await (await import('../transport/jump-pool.ts')).closeJumps();
  }
};
const runAuditCommand: Cmds['runAuditCommand'] = async (c, o, ...a) =>
  closingJumps((await import('./commands/audit.ts')).runAuditCommand(c, await (await lab())(c, o), ...a));
const runFix: Cmds['runFix'] = async (c, o, ...a) =>
  closingJumps((await import('./commands/fix.ts')).runFix(c, await (await lab())(c, o), ...a));
const runInventory: Cmds['runInventory'] = async (c, o) =>
  (await import('./commands/inventory.ts')).runInventory(c, await (await lab())(c, o));
const runExport: Cmds['runExportAnsible'] = async (c, o) =>
  closingJumps((await import('./commands/export.ts')).runExportAnsible(c, await (await lab())(c, o)));
const runLab: Cmds['runLab'] = async (...a) => (await import('./commands/lab.ts')).runLab(...a);
const runMigrate: Cmds['runMigrate'] = async (c, sub, o, ...a) =>
  (await import('./commands/migrate.ts')).runMigrate(c, sub, await (await lab())(c, o), ...a);

const runPackValidate: Cmds['runPackValidate'] = async (...a) =>
  (await import('./commands/pack.ts')).runPackValidate(...a);
const runPackList: Cmds['runPackList'] = async (...a) => (await import('./commands/pack.ts')).runPackList(...a);
const runDiff: Cmds['runDiff'] = async (...a) => (await import('./commands/diff.ts')).runDiff(...a);
const runServe: Cmds['runServe'] = async (c, o) =>
  closingJumps((await import('./commands/serve.ts')).runServe(c, await (await lab())(c, o)));
const runMerge: Cmds['runMerge'] = async (...a) => (await import('./commands/merge.ts')).runMerge(...a);

export function buildProgram(ctx: CliContext, setExit: (code: number) => void): Command {
  const program = new Command('smdoctor')
    .description(
      'Agentless fleet doctor for search clusters: the known causes of "Error while parsing limits: Base user limit not found in index", checked in the vendor\'s troubleshooting order; the keyword-autocompletion migration',
    )
    .version(VERSION)
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => ctx.stdout.write(s),
      writeErr: (s) => sayTo(ctx.stderr).raw(s),
    });

  // where results go is checked before anything is read or changed: a bad -o must not be found after a fix
  program.hook('preAction', async (_p, action) => {
    // the size limit is read deep in gather and transport: a bad value stops the run here, not on the first read
    maxFileMib(ctx.env);
    const o = action.optsWithGlobals() as { output?: unknown; backupDir?: unknown; apply?: unknown; history?: unknown };
    if (typeof o.output === 'string') await checkWritable(resolve(ctx.cwd, o.output));
    // diff only reads --history; the others keep their report there
    if (typeof o.history === 'string' && action.name() !== 'diff')
      await checkCreatableDir(resolve(ctx.cwd, o.history), '--history');
    const writesBackups = action.name() === 'fix' || o.apply === true;
    if (writesBackups && typeof o.backupDir === 'string')
      await checkCreatableDir(expandHome(o.backupDir, ctx.env, ctx.cwd), '--backup-dir');
  });

  const commonOf = (cmd: Command) => cmd.optsWithGlobals() as CommonOptions & Record<string, unknown>;

  addPackOptions(
    addHistory(
      addCommon(
        program
          .command('audit')
          .description('read-only: gather, correlate, run the checks, print findings and the planned actions'),
      ),
    ),
  )
    .addOption(FLAGS.check())
    .addOption(
      FLAGS.shard(
        "audit shard K of N (K from 0): a stable split by cluster, every host in one shard; `smdoctor merge` joins the shards' JSON reports",
      ),
    )
    .action(async (_o, cmd: Command) => setExit(await runAuditCommand(ctx, commonOf(cmd))));

  addPackOptions(
    addHistory(
      addCommon(program.command('fix').description('build the same plan as audit, then carry it out in order')),
    ),
  )
    .addOption(FLAGS.check())
    .addOption(FLAGS.yes('do not ask for confirmation'))
    .addOption(FLAGS.backupDir('where the old content of every edited file is kept'))
    .addOption(
      FLAGS.allowYellow(
        'restart on a yellow cluster that is settled (all data nodes present, no shard moving), and wait for that instead of green',
      ),
    )
    .addOption(
      FLAGS.plan(
        'a reviewed plan (a JSON report of audit): go ahead in a cluster only if the audit plans exactly the same now',
      ),
    )
    .addOption(
      FLAGS.breakLease('take the lease of each cluster even if another fix holds it (only when that run died)'),
    )
    .addOption(FLAGS.approve())
    .addOption(FLAGS.planMaxAge())
    .action(async (_o, cmd: Command) => setExit(await runFix(ctx, commonOf(cmd))));

  const migrate = program
    .command('migrate')
    .description(
      'before enabling keyword autocompletion (the upgrade to 5.1): find the stored queries that need the text operator',
    );
  addCommon(
    migrate.command('explain').description('explain one query: its fields, macro trees, errors and replacement'),
  )
    .argument('[query]', "the SML query, or '-' for standard input")
    .option('--file <file>', 'read the query from FILE')
    .option('--mappings <file>', 'a saved GET _mapping or _mapping/field response: work offline')
    .option('--macros <file>', 'YAML or JSON list of macro definitions: work offline')
    .addOption(FLAGS.source())
    .action(async (query: string | undefined, _o, cmd: Command) =>
      setExit(await runMigrate(ctx, 'explain', commonOf(cmd), query)),
    );
  const addApply = (cmd: Command) =>
    cmd
      .addOption(FLAGS.apply())
      .addOption(FLAGS.yes('with --apply: do not ask for confirmation'))
      .addOption(FLAGS.backupDir('with --apply: where the original documents are kept'))
      .addOption(
        FLAGS.breakLease("with --apply: take the cluster's lease even if a fix holds it (only when that run died)"),
      )
      .addOption(FLAGS.source());
  addHistory(
    addApply(addCommon(migrate.command('jobs').description('replacement list for the queries of scheduled jobs'))),
  ).action(async (_o, cmd: Command) => setExit(await runMigrate(ctx, 'jobs', commonOf(cmd))));
  addHistory(
    addApply(
      addCommon(migrate.command('dashboards').description('replacement list for the queries of dashboard panels')),
    ),
  ).action(async (_o, cmd: Command) => setExit(await runMigrate(ctx, 'dashboards', commonOf(cmd))));

  const exportAnsible = addPackOptions(
    program.command('export').description('write a reviewed plan for another tool to carry out').command('ansible'),
  )
    .description('a playbook directory that ansible-playbook (and so AWX) runs exactly as fix would: pins first')
    .addOption(
      FLAGS.plan('the reviewed plan (a JSON report of audit): exported only if the audit plans exactly the same now'),
    )
    .option('-o, --output-dir <dir>', 'the playbook directory to write (new or empty)');
  addInventory(exportAnsible)
    .addOption(FLAGS.sshConfig())
    .addOption(FLAGS.planMaxAge())
    .addOption(FLAGS.approve())
    .addOption(FLAGS.forks())
    .addOption(FLAGS.allowYellow('the playbook restarts on, and waits for, a settled yellow instead of green'))
    .addOption(FLAGS.timeout())
    .action(async (_o, cmd: Command) => setExit(await runExport(ctx, commonOf(cmd))));

  const pack = program.command('pack').description("check packs: your own checks beside the vendor's (docs/packs.md)");
  pack
    .command('validate')
    .description('check pack and waivers files as audit loads them: every problem at file:line:col (exit 2)')
    .argument('<file...>', 'pack files, waivers files or builtin:NAME')
    .action(async (files: string[]) => setExit(await runPackValidate(ctx, files)));
  pack
    .command('list')
    .description('the checks audit runs with these packs, in order, and the packs that ship with smdoctor')
    .addOption(FLAGS.pack())
    .action(async (_o, cmd: Command) => setExit(await runPackList(ctx, commonOf(cmd))));

  const lab = program
    .command('lab')
    .description('the local lab: an emulated cluster behind real OpenSSH servers (not a search engine)');
  lab
    .command('up')
    .description('build and start the lab, print its inventory path')
    .addOption(FLAGS.labDir())
    .option(
      '--scenario <name|file>',
      'healthy, broken, one per check id, fleet, or a scenario YAML file',
      DEFAULTS.scenario,
    )
    .addOption(
      new Option(
        '--layout <layout>',
        'inventory: one YAML file; repo: an Ansible repository (group_vars, the API password in a vault file)',
      )
        .choices(['inventory', 'repo'])
        .default(DEFAULTS.layout),
    )
    .option(
      '--bastion',
      'put the nodes in a network namespace reachable only through a jump host (root; inventory with ssh_config ProxyJump and api_via_ssh)',
    )
    .action(async (o: Record<string, string | boolean>) => setExit(await runLab(ctx, 'up', o)));
  lab
    .command('status')
    .description('nodes, roles, and whether each is up')
    .addOption(FLAGS.labDir())
    .addOption(FLAGS.format(['text', 'json']))
    .action(async (o: Record<string, string>) => setExit(await runLab(ctx, 'status', o)));
  lab
    .command('down')
    .description('stop every process the lab started')
    .addOption(FLAGS.labDir())
    .action(async (o: Record<string, string>) => setExit(await runLab(ctx, 'down', o)));

  addCommon(
    program
      .command('inventory')
      .description('the inventory as smdoctor resolves it, like ansible-inventory (secrets redacted)'),
  )
    .option('--list', 'every host with its groups and merged variables, and the clusters')
    .option('--graph', 'the group tree')
    .option('--host <name>', "one host's merged variables")
    .action(async (_o, cmd: Command) => setExit(await runInventory(ctx, commonOf(cmd))));

  program
    .command('diff')
    .description(
      'compare two JSON reports of audit or fix: per cluster and check, what regressed, what was fixed, what stayed (exit 1 on a regression)',
    )
    .argument('[old]', 'the older JSON report')
    .argument('[new]', 'the newer JSON report')
    .addOption(FLAGS.history('compare the last two audit or fix reports kept in DIR'))
    .addOption(FLAGS.format(['text', 'json', 'markdown']))
    .addOption(FLAGS.output())
    .action(async (oldFile: string | undefined, newFile: string | undefined, o: Record<string, unknown>) =>
      setExit(await runDiff(ctx, oldFile, newFile, o)),
    );

  addPackOptions(
    addHistory(
      addCommon(
        program
          .command('serve')
          .description(
            'read-only, long-running: audit every --interval over kept SSH connections; serve /metrics, /report.json, /report.html, /healthz',
          ),
      ),
    ),
  )
    .addOption(FLAGS.check())
    .addOption(FLAGS.shard('serve shard K of N (K from 0), as audit --shard splits the fleet'))
    .option(
      '--interval <seconds>',
      'seconds between cycles (±10 % jitter)',
      intervalSeconds('--interval'),
      DEFAULTS.interval,
    )
    .option(
      '--full-every <n>',
      'read every host in full every n cycles (in between, only hosts whose files changed are read)',
      positiveInt('--full-every'),
      DEFAULTS.fullEvery,
    )
    .option(
      '--listen <host:port>',
      'where to serve; an address other than loopback needs --tls-cert, --tls-key and --auth-file',
      DEFAULTS.listen,
    )
    .option('--tls-cert <file>', 'serve HTTPS with this PEM certificate (chain)')
    .option('--tls-key <file>', 'the PEM private key of --tls-cert')
    .option(
      '--auth-file <file>',
      "who may read the endpoints: 'bearer sha256:HEX' or 'basic NAME scrypt:SALT:KEY' lines",
    )
    .option(
      '--hash-secret [user]',
      "print the --auth-file line for the secret on standard input (a token, or USER's password), then exit",
    )
    .addOption(
      new Option('--log-format <format>', 'log lines on standard error')
        .choices(['text', 'json'])
        .default(DEFAULTS.logFormat),
    )
    .action(async (_o, cmd: Command) => setExit(await runServe(ctx, commonOf(cmd))));

  program
    .command('merge')
    .description(
      'join the JSON reports of audit --shard K/N into the report one run over the whole inventory gives (same exit code)',
    )
    .argument('<reports...>', 'JSON reports of audit, one per shard')
    .addOption(FLAGS.format())
    .addOption(FLAGS.output())
    .addOption(FLAGS.severity())
    .action(async (files: string[], o: Record<string, unknown>) => setExit(await runMerge(ctx, files, o)));

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
