/** JSON whose integers past 2^53 stay exact (as BigInt), through the official client's own serializer: no stored number loses digits. */
import { randomBytes } from 'node:crypto';
import { Serializer } from '@opensearch-project/opensearch';

// plain JSON.parse semantics otherwise (a `__proto__` key is data, as the engine treats it)
const serializer = new Serializer({ enableLongNumeralSupport: true, disablePrototypePoisoningProtection: true });

/** Like JSON.parse; integers outside the safe range come back as BigInt. Throws on bad JSON. */
export function parseLong(text: string): unknown {
  return serializer.deserialize(text);
}

/** Like JSON.stringify (with indentation); a BigInt is written as its exact digits. */
export function stringifyLong(value: unknown, space?: number | string): string {
  const tag = randomBytes(6).toString('hex');
  let big = false;
  const out = JSON.stringify(
    value,
    (_k, v: unknown) => {
      if (typeof v !== 'bigint') return v;
      big = true;
      return `\u0000${tag}:${v}`;
    },
    space,
  );
  // the tag is random per call, so no string of the document can look like it
  return big ? out.replace(new RegExp(`"\\\\u0000${tag}:(-?\\d+)"`, 'g'), '$1') : out;
}
