import { resolve } from 'node:path';
import type { CliContext } from '../context.ts';
import { effectiveFormat } from '../context.ts';
import { requireLab, type LabStatus } from '../lab-package.ts';
import { DEFAULTS } from '../../base/defaults.ts';
import { labArgs, type LabArgs } from '../args.ts';
import { shQuote } from '../../transport/command.ts';

export async function runLab(ctx: CliContext, sub: 'up' | 'down' | 'status', flags: Partial<LabArgs>): Promise<number> {
  const { labUp, labDown, labStatus, writeLabRepo } = await requireLab();
  const options = labArgs(flags);
  const dir = resolve(ctx.cwd, options.dir);
  if (sub === 'up') {
    const scenario = options.scenario;
    const r = await labUp({
      dir,
      scenario: /[/\\]|\.ya?ml$/.test(scenario) ? resolve(ctx.cwd, scenario) : scenario,
      env: ctx.env,
      bastion: options.bastion,
    });
    if (options.layout === 'repo') {
      const repo = await writeLabRepo(r.layout);
      ctx.stdout.write(
        `${statusText(r.status)}\n-i ${repo.inventoryDir} --vault-password-file ${repo.vaultPasswordFile}\n`,
      );
      return 0;
    }
    // the default inventory of every command run in this directory while the lab is up; elsewhere, the export
    const here =
      dir === resolve(ctx.cwd, DEFAULTS.labDir)
        ? 'the default inventory here while the lab is up; from anywhere: '
        : 'to use it: ';
    ctx.stdout.write(
      `${statusText(r.status)}\n\n${here}export SMDOCTOR_INVENTORY=${shQuote(r.inventoryPath)}\n${r.inventoryPath}\n`,
    );
    return 0;
  }
  if (sub === 'down') {
    const r = await labDown(dir);
    const net = r.netRemoved ? '; network namespaces removed' : '';
    ctx.stdout.write(
      r.stopped.length
        ? `lab in ${dir} stopped (${r.stopped.length} processes: ${r.stopped.join(', ')})${net}; node trees kept\n`
        : `lab is not up in ${dir}${net}\n`,
    );
    return 0;
  }
  const st = await labStatus(dir);
  const format = effectiveFormat(ctx, options.format);
  if (format === 'json') ctx.stdout.write(`${JSON.stringify(st ?? { dir, up: false }, null, 2)}\n`);
  else ctx.stdout.write(st ? `${statusText(st)}\n` : `lab is not up in ${dir}\n`);
  return 0;
}

function statusText(st: LabStatus): string {
  const lines = [
    `smdoctor lab in ${st.dir} (scenario ${st.scenario}) — an emulated cluster behind real OpenSSH servers, not a search engine`,
  ];
  for (const c of st.clusters) {
    lines.push('', `cluster ${c.name}  api ${c.api_url}  elected manager ${c.elected_manager ?? '(none)'}`);
    const state = (x: { state: string; reason?: string }) => x.state + (x.reason ? `: ${x.reason}` : '');
    // the variable-width column goes last so that it pads nothing
    const rows = c.nodes.map((n) => [n.name, `${n.ip}:${n.ssh_port}`, state(n), n.roles.join(',') || '-']);
    for (const w of c.web_hosts) rows.push([w.name, `${w.ip}:${w.ssh_port}`, state(w), `web → ${w.hosts.join(' ')}`]);
    const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => r[i]!.length)));
    for (const r of rows)
      lines.push(
        `  ${r
          .slice(0, 3)
          .map((x, i) => x.padEnd(widths[i]!))
          .join('  ')}  ${r[3]}`,
      );
  }
  return lines.join('\n');
}
