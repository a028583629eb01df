/**
 * Where a node keeps its config and its program: found by the batched command's own shell before it reads anything,
 * in a fixed order (the inventory, the running process's environment, the service's environment files, the packages'
 * folders, the archive's `{search_home}/config`), and said back as one section, each choice with its reason.
 */
import { shQuote as shq } from '../transport/command.ts';
import type { NodeLayout, LayoutChoice } from '../model/index.ts';
import type { HostConfig } from '../inventory/types.ts';
import { engineNames } from '../facts/layout.ts';

/** What the inventory says of the layout, and the names the engine's packages use. */
export interface LayoutProbe {
  engine: string;
  searchHome: string;
  webHome: string;
  /** search_home / web_home were written in the inventory (not the default): they count as the inventory's word. */
  searchHomeGiven?: boolean;
  webHomeGiven?: boolean;
  engineHome?: string;
  engineConfigDir?: string;
  webConfigDir?: string;
  enginePidFile?: string;
  /** Tests only: a folder standing for `/` where /etc and /usr/share are looked for (never /proc). */
  root?: string;
}

// a grep basic regex matching exactly this text: grep's own command line then holds the escaped form, never the text
export const bre = (s: string): string => s.replace(/[.[\\*^$]/g, '\\$&');

/**
 * Shell lines (after batchCommand's `B`) that set EC, EH, WC, WH (config folders and homes), EP (the engine's pid, or
 * empty) and print the `layout` section. A value from the host (an environment, a file) is never run nor put into
 * a command's text: it is checked (absolute, printable, no `.`/`..` part) and then only used inside double quotes.
 */
export function layoutLines(p: LayoutProbe): string[] {
  const n = engineNames(p.engine);
  const R = p.root ?? '';
  const pidFile = p.enginePidFile ?? `/var/run/${p.engine}/${p.engine}.pid`;
  const homeWord = p.engineHome ?? p.searchHome;
  return [
    `R=${shq(R)}; E=${shq(p.engine)}; WE=${shq(n.webPackage)}`,
    `printf '%s FILE layout\\n' "$B"`,
    `L() { printf '%s\\t%s\\t%s\\n' "$1" "$2" "$3"; }`,
    // why a found path is not used: said, never used
    `ok() { case $1 in /*) ;; *) why='not an absolute path'; return 1;; esac; ` +
      `case $1 in *[![:print:]]*) why='holds a control character'; return 1;; esac; ` +
      `case /$1/ in */../*|*/./*) why='holds a . or .. part'; return 1;; esac; return 0; }`,
    `pick() { [ -z "$X" ] && [ -n "$3" ] || return 0; if ok "$3"; then X=$3; L "$1" "$2" "$3"; else L refused "$1 $2" "$why"; fi; }`,
    // one NUL-separated entry of /proc/<pid>/{environ,cmdline}: its value (the dot keeps a trailing newline, refused later)
    `pv() { v=$(LC_ALL=C grep -z -m1 -e "^$2=" "$1" 2>/dev/null | tr -d '\\000'; echo .); v=\${v%.}; v=\${v#*=}; }`,
    // a NAME=value line of an environment file, read as text (never sourced); the last one counts, as for systemd
    `ef() { v=$(sed -n "s/^[[:space:]]*\\(export[[:space:]][[:space:]]*\\)\\{0,1\\}$2=//p" "$1" 2>/dev/null | tail -n 1); ` +
      `case $v in \\"*\\") v=\${v#\\"}; v=\${v%\\"};; \\'*\\') v=\${v#\\'}; v=\${v%\\'};; esac; }`,
    // the process: its pid file when the pid there runs the main program, else the one process of this home, else the
    // only one; none or several: unknown
    `fp() { p=; ph=; if [ -n "$3" ]; then q=; read -r q 2>/dev/null < "$3"; case $q in ''|*[!0-9]*) ;; ` +
      `*) if grep -qzx -e "$1" "/proc/$q/cmdline" 2>/dev/null; then p=$q; ph=pidfile; return 0; fi;; esac; fi; ` +
      `c=0; m=0; o=; for f in $(grep -lzx -e "$1" /proc/[0-9]*/cmdline 2>/dev/null); do c=$((c+1)); o=\${f#/proc/}; o=\${o%/cmdline}; ` +
      `if grep -qzx -e "$2" "$f" 2>/dev/null; then m=$((m+1)); p=$o; fi; done; ` +
      `if [ $m = 1 ]; then ph=home; elif [ $m = 0 ] && [ $c = 1 ] && [ -z "$4" ]; then p=$o; ph=only; else p=; ph="none $c"; fi; }`,
    `fp ${shq(bre(n.mainClass))} ${shq(`${bre(n.homeProp)}=${bre(homeWord)}`)} ${shq(pidFile)} ${p.engineHome !== undefined || p.searchHomeGiven ? '1' : "''"}; EP=$p; L proc "$ph" "$p"`,
    // the engine's home
    `X=; pick home inventory ${shq(p.engineHome ?? '')}; ${p.searchHomeGiven ? `pick home inventory ${shq(p.searchHome)}; ` : ''}` +
      `if [ -n "$EP" ]; then pv "/proc/$EP/cmdline" ${shq(bre(n.homeProp))}; pick home process "$v"; ` +
      `pv "/proc/$EP/environ" ${n.homeVar}; pick home "process ${n.homeVar}" "$v"; fi; ` +
      `for f in "$R/etc/default/$E" "$R/etc/sysconfig/$E"; do [ -f "$f" ] || continue; ef "$f" ${n.homeVar}; pick home "$f" "$v"; done; ` +
      `[ -d "$R/usr/share/$E" ] && pick home package "$R/usr/share/$E"; pick home archive ${shq(p.searchHome)}; EH=$X`,
    // the engine's config folder
    `X=; pick conf inventory ${shq(p.engineConfigDir ?? '')}; ` +
      `if [ -n "$EP" ]; then pv "/proc/$EP/environ" ${n.confVar}; pick conf "process ${n.confVar}" "$v"; fi; ` +
      `for f in "$R/etc/default/$E" "$R/etc/sysconfig/$E"; do [ -f "$f" ] || continue; ef "$f" ${n.confVar}; pick conf "$f" "$v"; done; ` +
      `[ -f "$R/etc/$E/$E.yml" ] && pick conf package "$R/etc/$E"; pick conf archive "$EH/config"; EC=$X`,
    // the web application: its process runs `<home>/…/src/cli/dist`
    `fp '.*/src/cli/dist' ${shq(`${bre(p.webHome)}/.*`)} '' ${p.webHomeGiven ? '1' : "''"}; WP=$p; L wproc "$ph" "$p"`,
    `X=; ${p.webHomeGiven ? `pick whome inventory ${shq(p.webHome)}; ` : ''}` +
      `[ -d "$R/usr/share/$WE" ] && pick whome package "$R/usr/share/$WE"; pick whome archive ${shq(p.webHome)}; WH=$X`,
    `X=; pick wconf inventory ${shq(p.webConfigDir ?? '')}; ` +
      `if [ -n "$WP" ]; then pv "/proc/$WP/environ" ${n.webConfVar}; pick wconf "process ${n.webConfVar}" "$v"; fi; ` +
      `for f in "$R/etc/default/$WE" "$R/etc/sysconfig/$WE"; do [ -f "$f" ] || continue; ef "$f" ${n.webConfVar}; pick wconf "$f" "$v"; done; ` +
      `[ -f "$R/etc/$WE/\${E}_dashboards.yml" ] && pick wconf package "$R/etc/$WE"; pick wconf archive "$WH/config"; WC=$X`,
    `printf '\\n%s END 0\\n' "$B"`,
  ];
}

const WHY: Record<string, string> = {
  inventory: 'set in the inventory',
  package: "the packages' folder",
  archive: "the archive's layout",
  process: "the running process's command line",
};

function because(source: string, pid: string | undefined): string {
  if (source.startsWith('process ')) return `the running process's ${source.slice(8)}${pid ? ` (pid ${pid})` : ''}`;
  if (source === 'process' && pid) return `${WHY.process} (pid ${pid})`;
  if (source.startsWith('/')) return `set in ${source}`;
  return WHY[source] ?? source;
}

const PROC_HOW: Record<string, string> = {
  pidfile: 'its pid file',
  home: 'its command line names this home',
  only: 'the only one running',
};

/** The `layout` section's lines as the node's folders, each with its reason; null when the section is missing. */
export function parseLayout(text: string | null): NodeLayout | null {
  if (text === null) return null;
  const got: Record<string, LayoutChoice> = {};
  const refused: string[] = [];
  const procs: Record<string, { pid?: string; how: string }> = {};
  for (const line of text.split('\n')) {
    const [key = '', source = '', ...rest] = line.split('\t');
    const value = rest.join('\t');
    if (key === 'proc' || key === 'wproc') {
      const [how = '', count] = source.split(' ');
      procs[key] = value
        ? { pid: value, how: PROC_HOW[how] ?? how }
        : { how: count && count !== '0' ? `${count} candidates, none chosen` : 'none running' };
    } else if (key === 'refused') refused.push(`${source}: ${value}`);
    else if (['home', 'conf', 'whome', 'wconf'].includes(key) && !got[key] && value)
      got[key] = { path: value, why: because(source, (key[0] === 'w' ? procs.wproc : procs.proc)?.pid) };
  }
  if (!got.home || !got.conf || !got.whome || !got.wconf) return null;
  return {
    engineHome: got.home,
    engineConfig: got.conf,
    webHome: got.whome,
    webConfig: got.wconf,
    ...(procs.proc ? { engineProcess: procs.proc } : {}),
    ...(procs.wproc ? { webProcess: procs.wproc } : {}),
    ...(refused.length ? { refused: refused.map((r) => r.replace(/^(\w+) /, '')) } : {}),
  };
}

/** The batched command's probe for one host: the inventory's word on its folders. */
export function layoutProbe(cfg: HostConfig): LayoutProbe {
  return {
    engine: cfg.engine,
    searchHome: cfg.searchHome,
    webHome: cfg.webHome,
    ...(cfg.searchHomeGiven ? { searchHomeGiven: true } : {}),
    ...(cfg.webHomeGiven ? { webHomeGiven: true } : {}),
    ...(cfg.engineHome ? { engineHome: cfg.engineHome } : {}),
    ...(cfg.engineConfigDir ? { engineConfigDir: cfg.engineConfigDir } : {}),
    ...(cfg.webConfigDir ? { webConfigDir: cfg.webConfigDir } : {}),
    ...(cfg.enginePidFile ? { enginePidFile: cfg.enginePidFile } : {}),
  };
}
