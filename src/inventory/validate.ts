/** What smdoctor needs beyond Ansible: every host must have an address to connect to. */
import type { InventoryBuilder } from './builder.ts';

export function checkAddress(
  b: InventoryBuilder,
  host: string,
  vars: Record<string, unknown>,
  line?: number,
  col?: number,
): boolean {
  if (host.trim() === '') {
    b.error('empty host name: give the host a name', line, col);
    return false;
  }
  if ('ansible_host' in vars) {
    const a = vars.ansible_host;
    if (a == null || (typeof a === 'string' && a.trim() === '')) {
      b.error(`host '${host}' has an empty ansible_host: set an address or remove the variable`, line, col);
      return false;
    }
  }
  return true;
}
