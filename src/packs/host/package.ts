/** `package: NAME`: the installed version of every package the packs name, from ONE dpkg-query or rpm per host. */
import { shQuote as shq } from '../../transport/command.ts';

/** A package name as dpkg and rpm write them: no glob (dpkg-query reads its arguments as patterns), never an option. */
export const PACKAGE_RE = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,127}$/;

/**
 * The section `tag('dpkg')` or `tag('rpm')` (whichever database the host has, dpkg first), or ABSENT `tag('none')`:
 * lines `NAME<TAB>STATUS<TAB>VERSION` (dpkg) or `NAME<TAB>VERSION` (rpm; "not installed" lines have no tab).
 */
export function packageLines(names: readonly string[], tag: (part: 'dpkg' | 'rpm' | 'none') => string): string[] {
  if (!names.length) return [];
  const args = names.map(shq).join(' ');
  return [
    `if [ -f /var/lib/dpkg/status ] && command -v dpkg-query >/dev/null 2>&1; then printf '%s FILE %s\\n' "$B" ${shq(tag('dpkg'))}; ` +
      `dpkg-query -W -f='\${Package}\\t\${Status}\\t\${Version}\\n' -- ${args} 2>/dev/null; printf '\\n%s END 0\\n' "$B"; ` +
      `elif command -v rpm >/dev/null 2>&1; then printf '%s FILE %s\\n' "$B" ${shq(tag('rpm'))}; ` +
      `rpm -q --qf '%{NAME}\\t%|EPOCH?{%{EPOCH}:}:{}|%{VERSION}-%{RELEASE}\\n' ${args} 2>/dev/null; printf '\\n%s END 0\\n' "$B"; ` +
      `else printf '%s ABSENT %s\\n' "$B" ${shq(tag('none'))}; fi`,
  ];
}

/** Installed versions by name; a package not installed (or only its config files left) has none. */
export function parsePackages(text: string, db: 'dpkg' | 'rpm'): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split('\n')) {
    const f = line.split('\t');
    if (db === 'dpkg' && f.length === 3 && / installed$/.test(f[1]!) && f[2]) {
      if (!out.has(f[0]!)) out.set(f[0]!, f[2]);
    } else if (db === 'rpm' && f.length === 2 && f[1] && !out.has(f[0]!)) out.set(f[0]!, f[1]);
  }
  return out;
}
