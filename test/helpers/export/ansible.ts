/** Real ansible-playbook against a lab's hosts over SSH, and smdoctor's audit, export and view of the cluster around it. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import type { Lab } from '../../../lab/src/index.ts';
import type { Report } from '../../../src/model/index.ts';
import { runCli } from '../cli.ts';

/** ansible-playbook as an operator runs it: the lab's inventory, its known_hosts checked strictly. */
export async function playbook(lab: Lab, inventory: string, dir: string, ...extra: string[]) {
  const r = await execa(
    'ansible-playbook',
    [
      '-i',
      inventory,
      '-e',
      `ansible_ssh_common_args='-o UserKnownHostsFile=${lab.knownHostsFile}'`,
      '-e',
      'smd_wait_delay=1',
      join(dir, 'site.yml'),
      ...extra,
    ],
    {
      reject: false,
      env: {
        ANSIBLE_PYTHON_INTERPRETER: 'auto_silent',
        ANSIBLE_HOST_KEY_CHECKING: 'true',
        ANSIBLE_NOCOLOR: '1',
        ANSIBLE_PIPELINING: 'true',
        ANSIBLE_RETRY_FILES_ENABLED: 'false',
        ANSIBLE_LOCAL_TEMP: join(lab.dir, 'ansible-tmp'),
        ANSIBLE_LOCALHOST_WARNING: 'false',
        // ssh's ConnectTimeout (ansible's default 10 s): a busy machine can outlast it, and the host is then UNREACHABLE
        ANSIBLE_TIMEOUT: '60',
      },
    },
  );
  const recap = /localhost\s+: ok=(\d+)\s+changed=(\d+)\s+unreachable=(\d+)\s+failed=(\d+)/.exec(r.stdout);
  return {
    code: r.exitCode,
    out: r.stdout,
    err: r.stderr,
    changed: recap ? Number(recap[2]) : -1,
    failed: recap ? Number(recap[4]) : -1,
  };
}

export async function audit(inventory: string, planFile?: string): Promise<{ code: number; report: Report }> {
  const r = await runCli(['audit', '-i', inventory, '--format', 'json', ...(planFile ? ['-o', planFile] : [])]);
  const text = planFile ? await readFile(planFile, 'utf8') : r.out;
  return { code: r.code, report: JSON.parse(text) as Report };
}

export const statuses = (r: Report): string[] => r.clusters.flatMap((c) => c.checks.map((k) => `${k.id}:${k.status}`));

export const exportPlan = (plan: string, inventory: string, dir: string, ...extra: string[]) =>
  runCli(['export', 'ansible', '--plan', plan, '-i', inventory, '-o', dir, ...extra]);
