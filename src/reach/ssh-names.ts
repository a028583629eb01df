/** Host names and users as an SSH server accepts them, and tokens quoted for the shell that runs a ProxyCommand. */
import { InputError } from '../base/errors.ts';

// letters, digits, dots, dashes, underscores; IPv6 colons, brackets and a %zone; never a leading dash (an ssh option)
const HOST = /^(?!-)[\p{L}\p{N}._:%[\]-]+$/u;
// POSIX portable user names, plus `@` and `+` (directory and Kerberos users); never a leading dash
const USER = /^(?!-)[\p{L}\p{N}._@+-]+\$?$/u;

export const validHost = (s: string): boolean => HOST.test(s);
export const validUser = (s: string): boolean => USER.test(s);

/** Refuses, naming the inventory host, an address or user that no SSH server would accept (`;`, `$(`, spaces, …). */
export function checkSshNames(name: string, address: string, user: string, file?: string): void {
  const pos = file ? { pos: { file } } : {};
  if (!validHost(address))
    throw new InputError(
      `host '${name}': ${JSON.stringify(address)} is not a host name or address an SSH server accepts (letters, digits, '.', '-', '_', ':', not starting with '-'): fix ansible_host or the host's name`,
      pos,
    );
  if (!validUser(user))
    throw new InputError(
      `host '${name}': user ${JSON.stringify(user)} is not a user name an SSH server accepts (letters, digits, '.', '_', '-', '@', '+'): fix ansible_user or User`,
      pos,
    );
}

/** A value for `/bin/sh -c`: as it is when it holds only safe characters, else in single quotes. */
export function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
}
