/** Pure shell-command building: quoting, sudo wrapping, and the file scripts. No sockets here. */

/** POSIX single-quote quoting: safe for any byte string except NUL. */
export function shQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** One shell word: as written when it holds nothing the shell would read, else quoted (commands stay readable). */
export function shWord(s: string): string {
  return /^[\w./@%+=:,-]+$/.test(s) ? s : shQuote(s);
}

export interface SudoPlan {
  /** The command line to run on the host. */
  command: string;
  /** null when no sudo is involved; otherwise the target user (root for plain become). */
  sudoUser: string | null;
}

/**
 * asUser other than the login user → `sudo -n -u USER`; privileged with become → `sudo -n`;
 * otherwise the command runs as it is.
 */
export function planCommand(
  command: string,
  opts: { privileged?: boolean; asUser?: string },
  host: { user: string; become: boolean },
): SudoPlan {
  if (opts.asUser !== undefined && opts.asUser !== host.user) {
    return { command: `sudo -n -u ${shQuote(opts.asUser)} sh -c ${shQuote(command)}`, sudoUser: opts.asUser };
  }
  if (opts.privileged && host.become && opts.asUser === undefined) {
    return { command: `sudo -n sh -c ${shQuote(command)}`, sudoUser: 'root' };
  }
  return { command, sudoUser: null };
}

/**
 * Makes the host kill the command (and its process group) shortly after the client gives up:
 * sshd refuses "signal" requests for root logins (no post-auth privilege separation), so closing
 * the channel alone would leave the command running. Falls back to no deadline without timeout(1).
 */
export function withDeadline(command: string, seconds: number): string {
  if (!(seconds > 0)) return command;
  const q = shQuote(command);
  return `if command -v timeout >/dev/null 2>&1; then exec timeout -s KILL ${Math.ceil(seconds) + 1} sh -c ${q}; else exec sh -c ${q}; fi`;
}

/** The command that checks sudo -n works for a target user without a password. */
export function sudoProbeCommand(user: string): string {
  return user === 'root' ? 'sudo -n true' : `sudo -n -u ${shQuote(user)} true`;
}

export const HAS_SUDO_COMMAND = 'command -v sudo >/dev/null 2>&1';

/** Prints "E\n" + content when the file exists, "N\n" when it does not; fails when unreadable. */
export function readFileScript(path: string): string {
  return `f=${shQuote(path)}; if [ -e "$f" ]; then printf 'E\\n' && cat -- "$f"; else printf 'N\\n'; fi`;
}

/**
 * One script: prints the old content as readFileScript does (the backup), then writes stdin to a
 * temp file in the same directory, copies mode and owner, fsyncs, renames over the target and
 * fsyncs the directory. Any failure removes the temp file and leaves the target untouched.
 */
export function writeFileScript(path: string): string {
  return [
    'set -e',
    `f=${shQuote(path)}`,
    // Write through a symlink to its target, as editors do, instead of replacing the link.
    'if [ -L "$f" ]; then f=$(readlink -f -- "$f"); fi',
    'd=$(dirname -- "$f")',
    't=',
    `trap 'if [ -n "$t" ]; then rm -f -- "$t"; fi' EXIT`,
    `if [ -e "$f" ]; then printf 'E\\n'; cat -- "$f"; else printf 'N\\n'; fi`,
    't=$(mktemp -- "$d/.smdoctor.XXXXXXXX")',
    'cat > "$t"',
    'if [ -e "$f" ]; then chmod --reference="$f" -- "$t"; chown --reference="$f" -- "$t"; ' +
      `else chmod "$(printf '%o' $(( 0666 & ~0$(umask) )))" -- "$t"; fi`,
    'sync -- "$t"',
    'mv -f -- "$t" "$f"',
    't=',
    'sync -- "$d" 2>/dev/null || true',
  ].join('\n');
}

/** Splits the "E\n…" / "N\n" output of the two scripts; undefined when the marker is missing. */
export function parseMarked(stdout: Buffer, binary = false): { exists: boolean; content: string | null } | undefined {
  const marker = stdout.subarray(0, 2).toString('latin1');
  if (marker === 'N\n') return { exists: false, content: null };
  if (marker === 'E\n') return { exists: true, content: stdout.subarray(2).toString(binary ? 'latin1' : 'utf8') };
  return undefined;
}
