/** YAML 1.1 as Ansible reads it (PyYAML), for inventories and variable files alike. */
import { Scalar, visit, type Document, type Tags } from 'yaml';

/** PyYAML's YAML 1.1 resolvers where the yaml library's differ: y/n are strings, an exponent needs a dot and a sign. */
export function pyyamlTags(tags: Tags): Tags {
  return tags.map((tag) => {
    if (typeof tag !== 'object' || !('test' in tag) || !tag.test) return tag;
    if (tag.tag === 'tag:yaml.org,2002:bool') {
      const truthy = tag.test.test('true');
      return {
        ...tag,
        test: truthy ? /^(?:yes|Yes|YES|true|True|TRUE|on|On|ON)$/ : /^(?:no|No|NO|false|False|FALSE|off|Off|OFF)$/,
      };
    }
    if (tag.tag === 'tag:yaml.org,2002:float' && tag.test.test('1e3'))
      return { ...tag, test: /^[-+]?(?:[0-9][0-9_]*)?\.[0-9_]*[eE][-+][0-9]+$/ };
    return tag;
  });
}

/**
 * PyYAML ends a block scalar (`|`, `>`) that runs to the end of a text without a final line break with no `\n`: the
 * yaml library adds one. The scalar ending there loses it, as Ansible reads it.
 */
export function pyyamlStreamEnd(doc: Document, text: string): void {
  if (text.endsWith('\n') || text.endsWith('\r')) return;
  visit(doc, {
    Scalar(_k, node) {
      const block = node.type === Scalar.BLOCK_LITERAL || node.type === Scalar.BLOCK_FOLDED;
      if (block && node.range?.[1] === text.length && typeof node.value === 'string' && node.value.endsWith('\n'))
        node.value = node.value.slice(0, -1);
    },
  });
}
