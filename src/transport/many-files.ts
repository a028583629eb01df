/**
 * Many small files read by ONE `head` on the host, exactly as `cat` would give them, under any `/bin/sh`.
 *
 * A shell's `read` cannot do it: dash and BusyBox ash read a byte at a time, and a /proc/sys file answers only a read
 * that starts at offset 0 (65530 came back as 6). `head -c N f1 f2 … /dev/null` reads each file from its start in
 * blocks and writes `==> NAME <==` before each (GNU and BusyBox alike, a blank line before all but the first); the shell
 * says beforehand which files exist and their names (in hex, so no name can split a line). Only files the kernel or
 * root writes go through it, in formats that cannot hold a line `==> …`: their bytes cannot fake the next header.
 */

/**
 * The shell function `small TAG PATH`: PATH joins the one read when it is a file (its name sent in hex after the tag's
 * `WANT`), else the tag is ABSENT. The names wait in `$M`, one a line: a name holding a newline is not read.
 */
export const SMALL_FUNCTION =
  `NL='\n'; M=; small() { if [ -f "$2" ]; then case $2 in *"$NL"*) printf '%s ABSENT %s\\n' "$B" "$1"; return;; esac; ` +
  `M=$M$2$NL; printf '%s WANT ' "$B"; hex "$2"; printf ' %s\\n' "$1"; else printf '%s ABSENT %s\\n' "$B" "$1"; fi; }`;

/** The one `head` over every file `small` named, one byte past the limit each (split on newlines only, no globbing). */
export function manyRead(max: number): string {
  return (
    `if [ -n "$M" ]; then printf '%s MANY\\n' "$B"; IFS=$NL; set -f; head -c ${max + 1} -- $M /dev/null 2>/dev/null; ` +
    `r=$?; unset IFS; set +f; M=; printf '\\n%s END %s\\n' "$B" "$r"; fi`
  );
}

export interface ManyWanted {
  tag: string;
  /** The path as the shell gave it to head. */
  name: string;
}

export interface ManySection {
  tag: string;
  text: string | null;
  readCode?: number;
  tooLarge?: true;
}

const header = (name: string) => `==> ${name} <==\n`;

/**
 * head's output back into one section per wanted file. A file head could not open (gone since, unreadable) has no
 * header: it is unread (readCode 1). `out` is latin1 (one char a byte); the last header is /dev/null's, always empty.
 */
export function splitMany(out: string, wanted: readonly ManyWanted[], max: number): ManySection[] {
  const names = [...wanted.map((w) => w.name), '/dev/null'];
  const sections: ManySection[] = wanted.map((w) => ({ tag: w.tag, text: null, readCode: 1 }));
  let open: { j: number; start: number } | null = null;
  let pos = 0;
  for (let j = 0; j < names.length; j++) {
    const h = (open || pos ? '\n' : '') + header(names[j]!);
    const last = j === names.length - 1;
    // /dev/null's header ends the output: the last file's bytes cannot fake it
    const at = last
      ? out.endsWith(h) && out.length - h.length >= pos
        ? out.length - h.length
        : -1
      : open || pos
        ? out.indexOf(h, pos)
        : out.startsWith(h)
          ? 0
          : -1;
    if (at < 0) continue; // head could not open it: not in the output
    if (open) {
      const text = out.slice(open.start, at);
      sections[open.j] =
        text.length > max
          ? { tag: wanted[open.j]!.tag, text: null, tooLarge: true }
          : { tag: wanted[open.j]!.tag, text };
    }
    pos = at + h.length;
    open = last ? null : { j, start: pos };
  }
  return sections;
}
