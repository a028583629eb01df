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
export function parseAddress(address: string): [string, number | undefined] | undefined {
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

/** The most hosts one inventory may hold: past it, a typo like m[1:999999] is refused instead of eating the memory. */
export const MAX_HOSTS = 100_000;

/** One [..] set as Ansible reads it: the i-th value without building the list, and how many there are. */
interface Range {
  size: number;
  at: (i: number) => string;
}

function parseRange(body: string): Range {
  const bounds = body.split(':');
  if (bounds.length !== 2 && bounds.length !== 3) throw new Error('host range must be begin:end or begin:end:step');
  const beg = bounds[0] || '0';
  const end = bounds[1];
  const step = bounds.length === 3 ? Number(bounds[2]) : 1;
  if (!end) throw new Error('host range must specify end value');
  if (!Number.isInteger(step) || step < 1)
    throw new Error(`host range step must be a positive integer, got '${bounds[2]}'`);
  let fill = (x: string | number) => String(x);
  if (beg[0] === '0' && beg.length > 1) {
    if (beg.length !== end.length) throw new Error('host range must specify equal-length begin and end formats');
    fill = (x) => String(x).padStart(beg.length, '0');
  }
  const ib = beg.length === 1 ? LETTERS.indexOf(beg) : -1;
  const ie = end.length === 1 ? LETTERS.indexOf(end) : -1;
  if (ib >= 0 && ie >= 0) {
    if (ib > ie) throw new Error('host range must have begin <= end');
    return { size: Math.floor((ie - ib) / step) + 1, at: (i) => LETTERS[ib + i * step] };
  }
  if (!/^\d+$/.test(beg) || !/^\d+$/.test(end)) throw new Error(`bad host range [${bounds.join(':')}]`);
  const [b, e] = [Number(beg), Number(end)];
  return { size: e < b ? 0 : Math.floor((e - b) / step) + 1, at: (i) => fill(b + i * step) };
}

/**
 * expand_hostname_range, in one pass: every [..] set left to right (the values put in never hold a '['),
 * counted before any name is built, so a range past `limit` hosts is refused at once.
 */
export function expandRange(line: string, limit = MAX_HOSTS): string[] {
  const text: string[] = [];
  const ranges: Range[] = [];
  let from = 0;
  for (;;) {
    const open = line.indexOf('[', from);
    if (open < 0) break;
    const close = line.indexOf(']', open);
    if (close < 0) throw new Error(`unclosed range in '${line}'`);
    text.push(line.slice(from, open));
    ranges.push(parseRange(line.slice(open + 1, close)));
    from = close + 1;
  }
  text.push(line.slice(from));
  let total = 1;
  for (const r of ranges) total *= r.size;
  if (total > limit)
    throw new Error(
      `expands to ${total.toLocaleString('en-US')} hosts, more than the limit of ${limit.toLocaleString('en-US')} hosts per inventory`,
    );
  const out = new Array<string>(total);
  const idx = new Array<number>(ranges.length).fill(0);
  for (let n = 0; n < total; n++) {
    let name = text[0];
    for (let k = 0; k < ranges.length; k++) name += ranges[k].at(idx[k]) + text[k + 1];
    out[n] = name;
    // odometer: the last range turns fastest, as the recursive expansion orders them
    for (let k = ranges.length - 1; k >= 0 && ++idx[k] === ranges[k].size; k--) idx[k] = 0;
  }
  return out;
}

/** _expand_hostpattern: host names and the port that applies to all of them. */
export function expandHostPattern(pattern: string, limit = MAX_HOSTS): { hosts: string[]; port?: number } {
  const parsed = parseAddress(pattern);
  const [name, port] = parsed ?? [pattern, undefined];
  const hosts = name.includes('[') ? expandRange(name, limit) : [name];
  return port === undefined ? { hosts } : { hosts, port };
}
