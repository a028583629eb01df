/** The packs' host reads as more sections of the one batched command per host, and those sections back as PackHostReads. */
import { shQuote as shq } from '../../transport/command.ts';
import type { PackHostReads, PackRead, PackSourceKind } from '../../model/index.ts';
import { sourceKind } from '../sources/registry.ts';
import type { PackHostPlace, PackNeeds } from './sources.ts';
import { manyRead, SMALL_FUNCTION } from '../../transport/many-files.ts';
import { DEFAULT_MAX_FILE_BYTES } from '../../base/limits.ts';

const SYSCTL = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

/** The section tags this module owns; any other tag is audit's. */
export const isPackTag = (tag: string): boolean =>
  /^(pfile|sysctl|jvmd|cert|k [a-z_]+) |^(meminfo|limits|jvm|jdk|pstat|bootstat|clktck)$/.test(tag);

/** The section tag of a source's own lines (`host:` of its module): `k KIND I`, I the index of its key, or a name (`all`). */
const kindTag = (kind: string) => (i: number | string) => `k ${kind} ${i}`;

/**
 * Shell lines for batchCommand's `extra`, after its `sec` and `hex`: files named by a pack are resolved (`readlink -f`) and
 * read only when they stay under their home, so a symlink cannot lead a read out. Tags name needs by index, never by
 * the pack's text: nothing a pack writes reaches the shell but single-quoted paths.
 */
export function packBatchLines(n: PackNeeds, place: PackHostPlace, max = DEFAULT_MAX_FILE_BYTES): string[] {
  const proc = place.procRoot ?? '/proc';
  const pidFile = place.enginePidFile ?? `/var/run/${place.engine}/${place.engine}.pid`;
  const files = [...n.files.values()];
  // LC_ALL=C: `hex` turns a path into its bytes, not its characters
  const lines = [
    // the node's folders as the batched command found them (src/audit/layout.ts), the inventory's when run alone
    `H=\${EH:-${shq(place.searchHome)}}; W=\${WH:-${shq(place.webHome)}}; C=\${EC:-"$H"/config}; P=${shq(proc)}; LC_ALL=C`,
    SMALL_FUNCTION,
  ];
  // a source whose own lines call `under` (file_modified) needs the homes resolved as much as a file read does
  if (files.length || [...n.host.keys()].some((k) => sourceKind(k as PackSourceKind).host?.under))
    lines.push(
      // the homes resolved once (a subshell, no program run), then each file: a symlink out is not read
      `HR=$(cd -P -- "$H" 2>/dev/null && pwd) || HR=$H; WR=$(cd -P -- "$W" 2>/dev/null && pwd) || WR=$W; ` +
        `CR=$(cd -P -- "$C" 2>/dev/null && pwd) || CR=$C`,
      // r: PATH with its folder resolved by a subshell's `cd -P`, or, for a symlink, by `readlink -f` (BusyBox's
      // realpath has no -e); 1 when it does not resolve (missing, a dangling link), 2 when it cannot be resolved
      `resolve() { if [ -L "$1" ]; then [ -e "$1" ] || return 1; r=$(readlink -f -- "$1" 2>/dev/null) && [ -n "$r" ] || return 2; ` +
        `else r=$(cd -P -- "\${1%/*}/" 2>/dev/null && pwd) || return 1; r=\${r%/}/\${1##*/}; fi; }`,
      // `under ROOT PATH`: 0 when PATH resolves under ROOT, 1 when it does not resolve (missing), 2 when it leads out
      `under() { resolve "$2"; u=$?; [ $u = 0 ] || return $u; case "$r" in "$1"/*) return 0 ;; esac; return 2; }`,
      `inside() { under "$2" "$3"; case $? in 0) sec "$1" "$r" ;; 1) sec "$1" "$3" ;; *) printf '%s OUT %s\\n' "$B" "$1" ;; esac; }`,
    );
  if (files.some((f) => f.base === 'abs'))
    lines.push(
      // an absolute path is read where it resolves under /etc, /usr/lib/systemd or the config folder ($CR), nowhere else
      `inabs() { resolve "$2"; case $? in 1) sec "$1" "$2"; return ;; 2) printf '%s OUT %s\\n' "$B" "$1"; return ;; esac; ` +
        `case "$r" in /etc/*|/usr/lib/systemd/*|"$CR"/*) sec "$1" "$r" ;; *) printf '%s OUT %s\\n' "$B" "$1" ;; esac; }`,
    );
  files.forEach((f, i) => {
    if (f.base === 'abs') return void lines.push(`inabs 'pfile ${i}' ${shq(f.path)}`);
    // `config/…` of the engine is read where the node keeps its config, which the packages put outside the home
    const conf = f.base === 'search' && f.path.startsWith('config/');
    const [root, dir, rel] = conf
      ? ['$CR', '$C', f.path.slice('config/'.length)]
      : f.base === 'web'
        ? ['$WR', '$W', f.path]
        : ['$HR', '$H', f.path];
    lines.push(`inside 'pfile ${i}' "${root}" "${dir}"/${shq(rel)}`);
  });
  // the kernel's files, then jdk/release, all read by one head at the end (transport/many-files.ts)
  [...n.sysctls].forEach((s, i) => {
    if (SYSCTL.test(s)) lines.push(`small 'sysctl ${i}' "$P"/sys/${shq(s.replaceAll('.', '/'))}`);
  });
  if (n.memory) lines.push(`small meminfo "$P"/meminfo`);
  if (n.limits || n.started)
    // the pid read by the shell's own `read` from its (regular) file (no program run), else the process the layout found
    lines.push(
      `pid=; read -r pid 2>/dev/null < ${shq(pidFile)}; case "$pid" in ''|*[!0-9]*) pid= ;; esac; pid=\${pid:-$EP}`,
    );
  const ofPid = (tag: string, file: string) =>
    `if [ -n "$pid" ]; then small ${tag} "$P/$pid/${file}"; else printf '%s ABSENT ${tag}\\n' "$B"; fi`;
  if (n.limits) lines.push(ofPid('limits', 'limits'));
  if (n.started)
    lines.push(
      ofPid('pstat', 'stat'),
      `small bootstat "$P"/stat`,
      `printf '%s FILE clktck\\n%s\\n%s END 0\\n' "$B" "$(getconf CLK_TCK 2>/dev/null)" "$B"`,
    );
  if (n.jvm) {
    lines.push(`sec jvm "$C"/jvm.options`);
    lines.push(`for f in "$C"/jvm.options.d/*.options; do [ -f "$f" ] || continue; sec 'jvmd ' "$f" "\${f##*/}"; done`);
  }
  // the sources with lines of their own, each reading all its keys at once
  for (const [kind, keys] of n.host)
    lines.push(...sourceKind(kind as PackSourceKind).host!.lines([...keys], place, kindTag(kind)));
  if (n.certs)
    lines.push(
      `for f in "$C"/*.pem "$C"/*.crt "$C"/*/*.pem "$C"/*/*.crt; do [ -f "$f" ] || continue; ` +
        `sec 'cert ' "$f" "\${f#"$C"/}"; done`,
    );
  // jdk/release last: a file the engine's user may write, so nothing after it but /dev/null's header, which it cannot fake
  if (n.jvm) lines.push(`small jdk "$H"/jdk/release`);
  lines.push(manyRead(max));
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
      const key = /^\d+$/.test(i) ? [...(n.host.get(source) ?? [])][Number(i)] : i;
      if (key !== undefined) (out.byKind![source] ??= {})[key] = readOf(s, `${source} ${key}`);
    } else if (kind === 'pfile') {
      const [key, f] = files[Number(arg)] ?? [];
      if (key && f)
        out.files[key] = readOf(
          s,
          f.base === 'abs' ? f.path : `${f.base === 'web' ? place.webHome : place.searchHome}/${f.path}`,
        );
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
