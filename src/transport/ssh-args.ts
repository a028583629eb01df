/** ansible_ssh_common_args / ansible_ssh_extra_args: the options smdoctor honours, turned into `ssh -G` arguments. */

/** Splits as Python's shlex.split does (Ansible's own splitter): quotes and backslashes, no expansion. */
export function shellSplit(text: string): string[] {
  const out: string[] = [];
  let cur: string | null = null;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
      else cur += c;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '\\' && i + 1 < text.length && '"\\$`\n'.includes(text[i + 1]!)) cur += text[++i];
      else cur += c;
      continue;
    }
    if (/\s/.test(c)) {
      if (cur !== null) out.push(cur);
      cur = null;
      continue;
    }
    cur ??= '';
    if (c === "'" || c === '"') quote = c;
    else if (c === '\\' && i + 1 < text.length) cur += text[++i];
    else cur += c;
  }
  if (quote) throw new Error(`unterminated ${quote} quote`);
  if (cur !== null) out.push(cur);
  return out;
}

/** The -o options ssh2 can honour (lowercase); any other changes behaviour smdoctor cannot reproduce. */
export const HONOURED_OPTIONS = [
  'hostname',
  'user',
  'port',
  'identityfile',
  'identitiesonly',
  'userknownhostsfile',
  'stricthostkeychecking',
  'hostkeyalias',
  'proxyjump',
  'proxycommand',
  'connecttimeout',
  'serveraliveinterval',
] as const;

export interface SshArgs {
  /** Arguments for `ssh -G`, in their order (-J, -o K=V, -l, -p, -i). */
  args: string[];
  /** -F FILE, the last one given. */
  configFile?: string;
  /** Options that are ignored, by name, for a warning. */
  ignored: string[];
}

const FLAG_WITH_VALUE: Record<string, string | undefined> = { J: 'proxyjump', l: 'user', p: 'port', i: 'identityfile' };

/** Reads the honoured options out of one variable's value; throws Error on an unbalanced quote or a missing value. */
export function parseSshArgs(text: string): SshArgs {
  const words = shellSplit(text);
  const res: SshArgs = { args: [], ignored: [] };
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const m = /^-([A-Za-z])(.*)$/.exec(w);
    if (!m) {
      res.ignored.push(w);
      continue;
    }
    const [, flag, attached] = m as unknown as [string, string, string];
    const takes = flag === 'o' || flag === 'F' || flag in FLAG_WITH_VALUE || 'bcDEeIiLmOQRSWw'.includes(flag);
    let value: string | undefined;
    if (takes) {
      value = attached || words[++i];
      if (value === undefined) throw new Error(`${w} needs a value`);
    }
    if (flag === 'F') res.configFile = value;
    else if (flag === 'o') {
      const om = /^\s*([A-Za-z]+)\s*(?:=\s*|\s+)(.*)$/.exec(value!);
      const name = om?.[1]?.toLowerCase();
      if (om && (HONOURED_OPTIONS as readonly string[]).includes(name!)) res.args.push('-o', `${om[1]}=${om[2]}`);
      else res.ignored.push(`-o ${om?.[1] ?? value}`);
    } else if (FLAG_WITH_VALUE[flag]) res.args.push(`-${flag}`, value!);
    else res.ignored.push(`-${flag}`);
  }
  return res;
}
