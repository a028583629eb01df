/** Host patterns as Ansible expands them: an optional :port, then [a:b(:step)] ranges (ansible.parsing.utils.addresses). */

const RANGE_ALNUM = String.raw`\[(?:[a-z]:[a-z]|[0-9]+:[0-9]+)(?::[0-9]+)?\]`;
const RANGE_NUM = String.raw`\[(?:[0-9]+:[0-9]+)(?::[0-9]+)?\]`;
const RANGE_HEX = String.raw`\[(?:[0-9a-f]+:[0-9a-f]+)(?::[0-9]+)?\]`;
const LABEL = String.raw`(?:\w|${RANGE_ALNUM})(?:[\w-]|${RANGE_ALNUM})*(?<![_-])`;
const I4 = String.raw`(?:[01]?[0-9]{1,2}|2[0-4][0-9]|25[0-5]|${RANGE_NUM})`;
const I6 = String.raw`(?:[0-9a-f]{1,4}|${RANGE_HEX})`;

const HOSTNAME = new RegExp(String.raw`^${LABEL}(?:\.${LABEL})*$`, 'iu');
const IPV4 = new RegExp(String.raw`^(?:${I4}\.){3}${I4}$`, 'i');
// a looser IPv6 test than Ansible's full grammar: hex groups, ranges and colons, at least two colons
const IPV6 = new RegExp(String.raw`^(?=(?:[^:]*:){2})(?:${I6}|:|\.)+$`, 'i');
const BRACKETED_HOSTPORT = /^\[(.+)\]:([0-9]+)$/;
const HOSTPORT = /^((?:[^:[\]]|\[[^\]]*\])*):([0-9]+)$/;

/** parse_address(allow_ranges=True): [host, port] or undefined when it is not a valid host identifier. */
function parseAddress(address: string): [string, number | undefined] | undefined {
  let port: number | undefined;
  for (const re of [BRACKETED_HOSTPORT, HOSTPORT]) {
    const m = re.exec(address);
    if (m) {
      address = m[1];
      port = Number(m[2]);
    }
  }
  if (IPV4.test(address) || IPV6.test(address) || HOSTNAME.test(address)) return [address, port];
  return undefined;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** expand_hostname_range: the first [..] set, then recursively the rest. Throws Error with Ansible's reasons. */
export function expandRange(line: string): string[] {
  const open = line.indexOf('[');
  const close = line.indexOf(']', open);
  if (open < 0) return [line];
  if (close < 0) throw new Error(`unclosed range in '${line}'`);
  const head = line.slice(0, open);
  const tail = line.slice(close + 1);
  const bounds = line.slice(open + 1, close).split(':');
  if (bounds.length !== 2 && bounds.length !== 3) throw new Error('host range must be begin:end or begin:end:step');
  const beg = bounds[0] || '0';
  const end = bounds[1];
  const step = bounds.length === 3 ? Number(bounds[2]) : 1;
  if (!end) throw new Error('host range must specify end value');
  if (!Number.isInteger(step) || step < 1) throw new Error(`host range step must be a positive integer, got '${bounds[2]}'`);
  let fill = (x: string | number) => String(x);
  if (beg[0] === '0' && beg.length > 1) {
    if (beg.length !== end.length) throw new Error('host range must specify equal-length begin and end formats');
    fill = (x) => String(x).padStart(beg.length, '0');
  }
  const seq: Array<string | number> = [];
  const ib = beg.length === 1 ? LETTERS.indexOf(beg) : -1;
  const ie = end.length === 1 ? LETTERS.indexOf(end) : -1;
  if (ib >= 0 && ie >= 0) {
    if (ib > ie) throw new Error('host range must have begin <= end');
    for (let i = ib; i <= ie; i += step) seq.push(LETTERS[i]);
  } else {
    const [b, e] = [Number(beg), Number(end)];
    if (!/^\d+$/.test(beg) || !/^\d+$/.test(end)) throw new Error(`bad host range [${bounds.join(':')}]`);
    for (let i = b; i <= e; i += step) seq.push(i);
  }
  return seq.flatMap((x) => expandRange(head + fill(x) + tail));
}

/** _expand_hostpattern: host names and the port that applies to all of them. */
export function expandHostPattern(pattern: string): { hosts: string[]; port?: number } {
  const parsed = parseAddress(pattern);
  const [name, port] = parsed ?? [pattern, undefined];
  const hosts = name.includes('[') ? expandRange(name) : [name];
  return port === undefined ? { hosts } : { hosts, port };
}
