/** A flag is declared once: every command's flags are the table's, each with its field, and a name means one thing. */
import t from 'tap';
import type { Command, Option } from 'commander';
import { buildProgram } from '../../../src/cli/main.ts';
import { FLAGS } from '../../../src/cli/options.ts';
import type { Flag } from '../../../src/cli/flag.ts';
import { captureContext } from '../../helpers/cli.ts';

/** Every command that runs (a leaf), by its path: `migrate jobs`, `lab up`. */
function leaves(cmd: Command, path: string[] = []): [string, Command][] {
  if (!cmd.commands.length) return [[path.join(' '), cmd]];
  return cmd.commands.flatMap((c) => leaves(c, [...path, c.name()]));
}

/** What a flag means, beside its help and parser: its names, its argument, its default. */
const meaning = (o: Option) => ({
  flags: o.flags,
  short: o.short,
  required: o.required,
  optional: o.optional,
  variadic: o.variadic,
  negate: o.negate,
  default: o.defaultValue,
});

const commands = leaves(buildProgram(captureContext(), () => undefined));
const table = Object.entries(FLAGS).map(([name, entry]) => {
  // an entry that takes an argument is worded by each command (or, --format, offered fewer choices)
  const worded = typeof entry === 'function' && entry.length > 0;
  const flag = (
    typeof entry === 'function'
      ? (entry as (help?: string) => Flag)(worded ? 'the help of this command' : undefined)
      : entry
  ) as Flag;
  return { name, flag, option: flag.option(), worded };
});
const declared = new Map(table.map((f) => [f.option.long!, f]));
const uses = new Map<string, { command: string; option: Option }[]>();
for (const [command, cmd] of commands)
  for (const option of cmd.options) uses.set(option.long!, [...(uses.get(option.long!) ?? []), { command, option }]);

t.test('the commands are all walked', async (t) => {
  t.ok(commands.length >= 15, `${commands.length} commands`);
  t.ok(
    commands.some(([c]) => c === 'export ansible'),
    'export ansible',
  );
  t.ok(uses.has('--interval') && uses.has('--log-format'), "serve's flags");
});

t.test('every flag of every command is the table’s', async (t) => {
  for (const [long, all] of uses)
    t.ok(declared.has(long), `${long} (${all.map((u) => u.command).join(', ')}) is in FLAGS`);
});

t.test('each flag fills the field commander names after it, and some command takes it', async (t) => {
  for (const { name, flag, option } of table) {
    t.equal(flag.key, option.attributeName(), `FLAGS.${name}: its field is ${option.attributeName()}`);
    t.ok(uses.has(option.long!), `FLAGS.${name} is taken by a command`);
    // the value when not given is the one the help shows; a switch is off; a flag without a default is left out
    if (option.defaultValue !== undefined) t.same(flag.fallback, option.defaultValue, `FLAGS.${name}: its default`);
    else if (flag.filled) t.equal(flag.fallback, false, `FLAGS.${name}: a switch, off`);
  }
});

t.test('each flag has the same help and default everywhere', async (t) => {
  for (const { name, option, worded } of table) {
    for (const u of uses.get(option.long!) ?? []) {
      t.same(meaning(u.option), meaning(option), `${u.command} ${option.long}: the table's name, argument and default`);
      // a choice is checked by a parser of its own; a command may offer fewer formats, never another one
      if (option.argChoices)
        t.ok(
          u.option.argChoices?.every((c) => option.argChoices!.includes(c)),
          `${u.command} ${option.long}: the table's choices`,
        );
      else
        t.equal(u.option.parseArg, option.parseArg, `${u.command} ${option.long}: the table's parser (FLAGS.${name})`);
      if (!worded) t.equal(u.option.description, option.description, `${u.command} ${option.long}: the table's help`);
    }
  }
});

t.test('a flag name means one thing across commands', async (t) => {
  for (const [long, all] of uses) {
    const first = all[0]!;
    for (const u of all.slice(1))
      t.same(meaning(u.option), meaning(first.option), `${long}: ${u.command} as ${first.command}`);
  }
  // a short flag stands for one long name; -o is where the output goes: a report file, or export's playbook directory
  const longsOf = new Map<string, Set<string>>();
  for (const [long, all] of uses)
    for (const u of all)
      if (u.option.short) longsOf.set(u.option.short, (longsOf.get(u.option.short) ?? new Set()).add(long));
  for (const [short, longs] of longsOf)
    t.same([...longs].sort(), short === '-o' ? ['--output', '--output-dir'] : [[...longs][0]], `${short}: one flag`);
});
