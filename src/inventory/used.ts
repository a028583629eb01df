/** The variables smdoctor itself reads: these are templated and decrypted; every other one is kept as written. */
import { isSecretKey, REDACTED } from '../text/index.ts';
import { isLazy, rawVars } from './lazy.ts';
import { PyFloat } from './pyfloat.ts';
import type { Vars } from './types.ts';
import { UnsafeValue, VaultValue } from './vault.ts';

export const USED_VARS: ReadonlySet<string> = new Set([
  'ansible_host',
  'ansible_port',
  'ansible_user',
  'ansible_connection',
  'ansible_become',
  'ansible_ssh_private_key_file',
  'ansible_private_key_file',
  'ansible_ssh_common_args',
  'ansible_ssh_extra_args',
  'ssh_config_file',
  'ssh_known_hosts_file',
  'ssh_host_key_checking',
  'engine',
  'search_home',
  'web_home',
  'engine_home',
  'engine_config_dir',
  'web_config_dir',
  'engine_user',
  'restart_command',
  'proc_root',
  'engine_pid_file',
  'api_url',
  'api_username',
  'api_password',
  'api_password_env',
  'api_password_file',
  'api_ca_file',
  'api_insecure',
  'api_via_ssh',
  'sml_macros_index',
  'sml_jobs_index',
  'sml_dashboards_index',
  'sml_job_query_field',
]);

/** Written out: an undecrypted vault value is a secret, an unsafe value is its text, a float as Python writes it. */
function asWritten(v: unknown): unknown {
  if (v instanceof VaultValue) return REDACTED;
  if (v instanceof UnsafeValue) return asWritten(v.value);
  if (v instanceof PyFloat) return v;
  if (Array.isArray(v)) return v.map(asWritten);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, asWritten(x)]));
  return v;
}

/**
 * A host's variables to show: smdoctor's own settings as it will use them, the rest as written (as
 * ansible-inventory --list shows them); a secret-named one is not worked out, since it is not shown. A host
 * smdoctor never reaches (`reached` false) uses none of them: every one is shown as written, nothing worked out.
 */
export function shownVars(vars: Vars, reached = true): Vars {
  const raw = rawVars(vars);
  const out: Vars = {};
  for (const k of Object.keys(raw)) {
    if (isLazy(vars, k) && isSecretKey(k)) out[k] = REDACTED;
    // a float smdoctor uses (ansible_port: 22.0) is shown as written, as Ansible shows it
    else out[k] = reached && USED_VARS.has(k) && !(raw[k] instanceof PyFloat) ? asWritten(vars[k]) : asWritten(raw[k]);
  }
  return out;
}
