/** YAML 1.1 as Ansible reads it (PyYAML), for inventories and variable files alike. */
import type { Tags } from 'yaml';

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
