/** The packs' host reads as more sections of the one batched command per host, and those sections back as PackHostReads. */
import { shQuote as shq } from '../../transport/command.ts';
import type { PackHostReads, PackRead, PackSourceKind } from '../../model/index.ts';
import { sourceKind } from '../sources/registry.ts';
import type { PackHostPlace, PackNeeds } from './sources.ts';

const SYSCTL = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

/** The section tags this module owns; any other tag is audit's. */
export const isPackTag = (tag: string): boolean =>
  /^(pfile|sysctl|jvmd|cert|k [a-z_]+) |^(meminfo|limits|jvm|jdk|pstat|bootstat|clktck)$/.test(tag);

/** The section tag of a source's own lines (`host:` of its module): `k KIND I`, I the index of its key, or `all`. */
const kindTag = (kind: string) => (i: number | 'all') => `k ${kind} ${i}`;

/**
 * Shell lines for batchCommand's `extra`, after its `sec` and `hex`: files named by a pack are resolved (`realpath`) and
 * read only when they stay under their home, so a symlink cannot lead a read out. Tags name needs by index, never by
 * the pack's text: nothing a pack writes reaches the shell but single-quoted paths.
 */
export function packBatchLines(n: PackNeeds, place: PackHostPlace): string[] {
  const proc = place.procRoot ?? '/proc';
  const pidFile = place.enginePidFile ?? `/var/run/${place.engine}/${place.engine}.pid`;
  const files = [...n.files.values()];
  const lines = [
    `H=${shq(place.searchHome)}; W=${shq(place.webHome)}; P=${shq(proc)}`,
    // /proc files and jdk/release are a few short lines: read by the shell itself (no program per file), 400 lines at most
    `small() { if [ -f "$2" ]; then printf '%s FILE %s\\n' "$B" "$1"; n=0; ` +
      `while IFS= read -r l || [ -n "$l" ]; do printf '%s\\n' "$l"; l=; n=$((n+1)); [ $n -lt 400 ] || break; done < "$2"; ` +
      `printf '\\n%s END 0\\n' "$B"; else printf '%s ABSENT %s\\n' "$B" "$1"; fi; }`,
  ];
  if (files.length)
    lines.push(
      // the homes resolved once (a subshell, no program run), then each file: a symlink out is not read
      `HR=$(cd -P -- "$H" 2>/dev/null && pwd) || HR=$H; WR=$(cd -P -- "$W" 2>/dev/null && pwd) || WR=$W`,
      // the folder resolved by a subshell's `cd -P`; realpath runs only for a file that is itself a symlink
      `inside() { if [ -L "$3" ]; then r=$(realpath -e -- "$3" 2>/dev/null) || { sec "$1" "$3"; return; }; ` +
        `else r=$(cd -P -- "\${3%/*}" 2>/dev/null && pwd) || { sec "$1" "$3"; return; }; r=$r/\${3##*/}; fi; ` +
        `case "$r" in "$2"/*) sec "$1" "$r" ;; *) printf '%s OUT %s\\n' "$B" "$1" ;; esac; }`,
    );
  files.forEach((f, i) =>
    lines.push(
      `inside 'pfile ${i}' "${f.base === 'web' ? '$WR' : '$HR'}" "${f.base === 'web' ? '$W' : '$H'}"/${shq(f.path)}`,
    ),
  );
  [...n.sysctls].forEach((s, i) => {
    if (SYSCTL.test(s)) lines.push(`small 'sysctl ${i}' "$P"/sys/${shq(s.replaceAll('.', '/'))}`);
  });
  if (n.memory) lines.push(`small meminfo "$P"/meminfo`);
  if (n.limits)
    lines.push(
      // the pid read by the shell's own `read`: no program run
      `pid=; read -r pid 2>/dev/null < ${shq(pidFile)}; case "$pid" in ''|*[!0-9]*) pid= ;; esac; ` +
        `if [ -n "$pid" ]; then small limits "$P/$pid/limits"; else printf '%s ABSENT limits\\n' "$B"; fi`,
    );
  if (n.jvm) {
    lines.push(`sec jvm "$H"/config/jvm.options`, `small jdk "$H"/jdk/release`);
    lines.push(
      `for f in "$H"/config/jvm.options.d/*.options; do [ -f "$f" ] || continue; sec 'jvmd ' "$f" "\${f##*/}"; done`,
    );
  }
  // the sources with lines of their own, each reading all its keys at once
  for (const [kind, keys] of n.host)
    lines.push(...sourceKind(kind as PackSourceKind).host!.lines([...keys], place, kindTag(kind)));
  if (n.started)
    lines.push(
      `pid=$(head -c 32 -- ${shq(pidFile)} 2>/dev/null | tr -dc 0-9); ` +
        `if [ -n "$pid" ]; then sec pstat "$P/$pid/stat"; else printf '%s ABSENT pstat\\n' "$B"; fi`,
      `sec bootstat "$P"/stat`,
      `printf '%s FILE clktck\\n%s\\n%s END 0\\n' "$B" "$(getconf CLK_TCK 2>/dev/null)" "$B"`,
    );
  if (n.certs)
    lines.push(
      `for f in "$H"/config/*.pem "$H"/config/*.crt "$H"/config/*/*.pem "$H"/config/*/*.crt; do [ -f "$f" ] || continue; ` +
        `sec 'cert ' "$f" "\${f#"$H"/config/}"; done`,
    );
  return lines;
}

export interface PackSection {
  tag: string;
  text: string | null;
  readCode?: number;
  tooLarge?: true;
  outside?: true;
}

const fromHex = (hex: string) => Buffer.from(hex, 'hex').toString('utf8');

function readOf(s: PackSection, what: string): PackRead {
  if (s.outside) return { text: null, error: `${what} resolves outside its folder (a symlink out): not read` };
  if (s.tooLarge) return { text: null, error: `${what} is too large to audit` };
  if (s.readCode !== undefined) return { text: null, error: `${what} could not be read (exit ${s.readCode})` };
  return { text: s.text === null ? null : Buffer.from(s.text, 'latin1').toString('utf8') };
}

/** The pack sections of one host's batch output; what was asked and not answered (the command stopped) stays absent. */
export function packReadsOf(n: PackNeeds, sections: readonly PackSection[], place: PackHostPlace): PackHostReads {
  const files = [...n.files.entries()];
  const sysctls = [...n.sysctls];
  const out: PackHostReads = { files: {}, sysctls: {}, ...(n.host.size ? { byKind: {} } : {}) };
  if (n.jvm) out.jvmOptionsD = {};
  if (n.certs) out.certs = {};
  for (const s of sections) {
    const [kind, arg = ''] = s.tag.split(' ', 2) as [string, string | undefined];
    if (kind === 'k') {
      const [, source = '', i = ''] = s.tag.split(' ', 3);
      const key = i === 'all' ? 'all' : [...(n.host.get(source) ?? [])][Number(i)];
      if (key !== undefined) (out.byKind![source] ??= {})[key] = readOf(s, `${source} ${key}`);
    } else if (kind === 'pfile') {
      const [key, f] = files[Number(arg)] ?? [];
      if (key && f) out.files[key] = readOf(s, `${f.base === 'web' ? place.webHome : place.searchHome}/${f.path}`);
    } else if (kind === 'sysctl') {
      const name = sysctls[Number(arg)];
      if (name !== undefined) out.sysctls[name] = readOf(s, `sysctl ${name}`);
    } else if (kind === 'meminfo') out.meminfo = readOf(s, 'meminfo');
    else if (kind === 'limits') out.limits = readOf(s, "the engine process's limits");
    else if (kind === 'jvm') out.jvmOptions = readOf(s, 'config/jvm.options');
    else if (kind === 'jdk') out.jdkRelease = readOf(s, 'jdk/release');
    else if (kind === 'jvmd') out.jvmOptionsD![fromHex(arg)] = readOf(s, `config/jvm.options.d/${fromHex(arg)}`);
    else if (kind === 'cert') out.certs![fromHex(arg)] = readOf(s, `config/${fromHex(arg)}`);
    else if (kind === 'pstat') out.procStat = readOf(s, "the engine process's stat");
    else if (kind === 'bootstat') out.bootStat = readOf(s, '/proc/stat');
    else if (kind === 'clktck') out.clkTck = readOf(s, 'CLK_TCK');
  }
  return out;
}
