/**
 * Bash stand-ins for the node command-line tools (opensearch-keystore, opensearch-plugin): the output, errors and
 * exit codes of OpenSearch's own tools; a configurable delay models the JVM start of the real tools.
 */

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function prelude(engine: string, delayFile: string, what: string): string {
  return `#!/usr/bin/env bash
# ${engine}-${what} of the smdoctor lab: an emulation of the real JVM tool, not the tool itself.
set -u
HOME_DIR="$(cd "$(dirname "$0")/.." && pwd)"
# Each run of the real tool costs a JVM start; the lab sleeps for the configured time instead.
ms="$(cat ${q(delayFile)} 2>/dev/null || echo 0)"
case "$ms" in ''|*[!0-9]*) ms=0 ;; esac
if [ "$ms" -gt 0 ]; then sleep "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))"; fi
`;
}

export function pluginTool(engine: string, delayFile: string): string {
  return `${prelude(engine, delayFile, 'plugin')}PLUGINS="$HOME_DIR/plugins"
usage() {
  printf 'A tool for managing installed ${engine} plugins\\n\\nCommands\\n--------\\nlist - Lists installed ${engine} plugins\\ninstall - Install a plugin\\nremove - removes plugins from ${engine}\\n\\n' >&2
  echo "ERROR: $1" >&2
  exit 64
}
cmd="\${1:-}"
[ $# -gt 0 ] && shift
case "$cmd" in
  list)
    for d in "$PLUGINS"/*/; do [ -d "$d" ] && basename "$d"; done | LC_ALL=C sort
    ;;
  remove)
    names=()
    for a in "$@"; do case "$a" in -*) ;; *) names+=("$a") ;; esac; done
    [ \${#names[@]} -gt 0 ] || usage "at least one plugin name is required"
    for name in "\${names[@]}"; do
      if [ -z "$name" ] || [ "\${name#*/}" != "$name" ] || [ ! -d "$PLUGINS/$name" ]; then
        echo "ERROR: plugin [$name] not found; run '${engine}-plugin list' to get list of installed plugins" >&2
        exit 78
      fi
    done
    for name in "\${names[@]}"; do
      echo "-> removing [$name]..."
      rm -rf -- "\${PLUGINS:?}/$name"
    done
    ;;
  install)
    echo "ERROR: the smdoctor lab cannot install plugins" >&2
    exit 64
    ;;
  '') usage "Missing command" ;;
  *) usage "Unknown command [$cmd]" ;;
esac
`;
}

/** Keystore format (lab only): a header line, then `name=base64(value)` lines. */
export const KEYSTORE_HEADER = '# smdoctor lab keystore v1 (emulated; the real file is binary)';

export function keystoreFile(entries: Record<string, string>): string {
  const lines = Object.keys(entries)
    .sort()
    .map((k) => `${k}=${Buffer.from(entries[k]!).toString('base64')}`);
  return `${KEYSTORE_HEADER}\n${lines.join('\n')}\n`;
}

export function keystoreTool(engine: string, delayFile: string, packagedConf?: string): string {
  const confVar = engine === 'elasticsearch' ? 'ES_PATH_CONF' : 'OPENSEARCH_PATH_CONF';
  const conf = packagedConf ? q(packagedConf) : '"$HOME_DIR/config"';
  return `${prelude(engine, delayFile, 'keystore')}CONF_DIR=${conf}
KS="\${${confVar}:-$CONF_DIR}/${engine}.keystore"
missing() { echo "ERROR: ${engine} keystore not found at [$KS]. Use 'create' command to create one." >&2; exit 65; }
names() { grep -v '^#' "$KS" | grep -v '^$' | cut -d= -f1 | LC_ALL=C sort; }
has() { names | grep -qxF -- "$1"; }
write_without() { awk -F= -v n="$1" '$1 != n' "$KS" > "$KS.tmp.$$" && cat "$KS.tmp.$$" > "$KS" && rm -f "$KS.tmp.$$"; }
create() { printf '%s\\n' ${q(KEYSTORE_HEADER)} "keystore.seed=$(head -c 24 /dev/urandom | base64 -w0)" > "$KS"; chmod 660 "$KS"; }
cmd="\${1:-}"
[ $# -gt 0 ] && shift
stdin=0; force=0; args=()
for a in "$@"; do
  case "$a" in
    -x|--stdin) stdin=1 ;;
    -f|--force) force=1 ;;
    -*) ;;
    *) args+=("$a") ;;
  esac
done
case "$cmd" in
  list)
    [ -f "$KS" ] || missing
    names
    ;;
  remove)
    [ -f "$KS" ] || missing
    [ \${#args[@]} -gt 0 ] || { echo "ERROR: Must supply at least one setting to remove" >&2; exit 64; }
    for s in "\${args[@]}"; do
      has "$s" || { echo "ERROR: Setting [$s] does not exist in the keystore." >&2; exit 78; }
    done
    for s in "\${args[@]}"; do write_without "$s"; done
    ;;
  add)
    [ \${#args[@]} -gt 0 ] || { echo "ERROR: the setting name can not be null" >&2; exit 64; }
    [ -f "$KS" ] || create
    for s in "\${args[@]}"; do
      if has "$s" && [ "$force" = 0 ]; then
        echo "ERROR: Setting [$s] already exists in the keystore; use --force to overwrite" >&2
        exit 78
      fi
      [ "$stdin" = 1 ] || printf 'Enter value for %s: ' "$s" >&2
      IFS= read -r value || true
      write_without "$s"
      printf '%s=%s\\n' "$s" "$(printf '%s' "$value" | base64 -w0)" >> "$KS"
    done
    ;;
  create)
    create
    echo "Created ${engine} keystore in $(dirname "$KS")"
    ;;
  '') echo "ERROR: Missing command" >&2; exit 64 ;;
  *) echo "ERROR: Unknown command [$cmd]" >&2; exit 64 ;;
esac
`;
}

/** The lab's systemctl: `labctl NODE restart SERVICE`, answered by the lab over its control socket. */
export function labctlScript(socketPath: string): string {
  return `#!/usr/bin/env bash
# labctl NODE restart|status SERVICE — the smdoctor lab's stand-in for systemctl.
set -u
SOCK=${q(socketPath)}
[ $# -ge 2 ] || { echo "usage: labctl NODE restart|status SERVICE" >&2; exit 2; }
node="$1"; action="$2"; service="\${3:-}"
out="$(curl -sS --max-time 600 --unix-socket "$SOCK" -w '\\n%{http_code}' -X POST "http://lab/$action/$node/$service" 2>&1)" || {
  echo "labctl: the lab is not running (no answer on $SOCK)" >&2
  exit 1
}
code="\${out##*$'\\n'}"
text="\${out%$'\\n'*}"
case "$code" in
  200) [ -n "$text" ] && printf '%s\\n' "$text"; exit 0 ;;
  404) printf '%s\\n' "$text" >&2; exit 5 ;;
  *) printf '%s\\n' "$text" >&2; exit 1 ;;
esac
`;
}
