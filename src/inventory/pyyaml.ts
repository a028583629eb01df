/** YAML 1.1 as Ansible reads it (PyYAML), for inventories and variable files alike. */
import { isScalar, Scalar, visit, type Document, type ScalarTag, type Tags } from 'yaml';
import { pyFloat } from './pyfloat.ts';

// PyYAML's float forms: a digit before the dot unless nothing precedes it (`-.5` is text), a signed exponent
const FLOAT = /^(?:[-+]?[0-9][0-9_]*\.[0-9_]*|\.[0-9][0-9_]*)$/;
const FLOAT_EXP = /^(?:[-+]?[0-9][0-9_]*\.[0-9_]*|\.[0-9][0-9_]*)[eE][-+][0-9]+$/;

/** A float as Python writes it (25.0, not 25): the yaml library's number, or the Scalar it returns, made a PyFloat. */
function pyFloatTag(tag: ScalarTag): ScalarTag {
  return {
    ...tag,
    resolve: (s, onError, opts) => {
      const r = tag.resolve(s, onError, opts) as unknown;
      const n = isScalar(r) ? r.value : r;
      return (typeof n === 'number' ? pyFloat(n) : r) as string;
    },
  };
}

/**
 * PyYAML's YAML 1.1 resolvers where the yaml library's differ: y/n are strings, a float needs a digit before its
 * dot (or nothing at all), an exponent needs a dot and a sign; floats keep their Python text.
 */
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
    if (tag.tag !== 'tag:yaml.org,2002:float') return tag;
    if (tag.test.test('1e3')) return pyFloatTag({ ...tag, test: FLOAT_EXP });
    return pyFloatTag(tag.test.test('1.5') ? { ...tag, test: FLOAT } : tag);
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
