/** `lab up --layout repo`: the lab's inventory as an Ansible repository, the API password in a vault file. */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { encryptVault } from 'smdoctor';
import { inventoryYaml } from './inventory.ts';
import type { LabLayout } from './layout.ts';

export interface LabRepo {
  /** The directory to pass as -i. */
  inventoryDir: string;
  /** The file to pass as --vault-password-file. */
  vaultPasswordFile: string;
}

/**
 * repo/inventories/lab/{hosts.yml, group_vars/all/{main.yml,vault.yml}} and repo/vault-password:
 * connection settings in group_vars, per-host paths in the hosts file, api_password templated from the vault.
 */
export async function writeLabRepo(l: LabLayout): Promise<LabRepo> {
  const root = join(l.dir, 'repo');
  const inventoryDir = join(root, 'inventories', 'lab');
  await rm(root, { recursive: true, force: true });
  await mkdir(join(inventoryDir, 'group_vars', 'all'), { recursive: true });
  const inv = parse(inventoryYaml(l)) as { all: { vars: Record<string, unknown>; children: unknown } };
  const { api_password_file: _file, ...shared } = inv.all.vars;
  const apiPassword = (await readFile(l.passwordFile, 'utf8')).trim();
  const vaultPassword = randomBytes(24).toString('base64url');
  const vaultPasswordFile = join(root, 'vault-password');
  await writeFile(vaultPasswordFile, `${vaultPassword}\n`, { mode: 0o600 });
  const head = `# Written by smdoctor lab up --layout repo for the lab in ${l.dir}.\n`;
  await writeFile(
    join(inventoryDir, 'hosts.yml'),
    head + stringify({ all: { children: inv.all.children } }, { nullStr: '' }),
  );
  await writeFile(
    join(inventoryDir, 'group_vars', 'all', 'main.yml'),
    head + stringify({ ...shared, api_password: '{{ vault_api_password }}' }),
  );
  const secret = stringify({ vault_api_password: apiPassword });
  await writeFile(
    join(inventoryDir, 'group_vars', 'all', 'vault.yml'),
    encryptVault(secret, Buffer.from(vaultPassword)),
    { mode: 0o600 },
  );
  return { inventoryDir, vaultPasswordFile };
}
