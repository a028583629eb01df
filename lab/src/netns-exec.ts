/** `ip netns exec NS cmd…` as argv (its own module: sshd.ts needs it and netns.ts needs sshd's stopPid). */
export const inNetns = (ns: string, cmd: string, args: string[]): [string, string[]] => [
  'ip',
  ['netns', 'exec', ns, cmd, ...args],
];
