/** A strict little well-formedness check (tags balance, attributes quoted, entities known), enough for our junit. */
export function XMLValidator(s: string): true | string {
  const body = s.replace(/^<\?xml[^?]*\?>\s*/, '');
  const stack: string[] = [];
  const re = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[\w.:-]+="[^"<]*")*)\s*(\/?)>|<|&(?!(?:amp|lt|gt|quot|apos);)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(body))) {
    if (m[0] === '<') return `stray < at ${m.index}`;
    if (m[0] === '&') return `bad entity at ${m.index}`;
    if (m[1]) {
      if (stack.pop() !== m[2]) return `unbalanced </${m[2]}> at ${m.index}`;
    } else if (!m[4]) stack.push(m[2]!);
  }
  return stack.length ? `unclosed <${stack.at(-1)}>` : true;
}
