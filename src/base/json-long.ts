/** JSON whose integers past 2^53 stay exact (as BigInt), through the official client's own serializer: no number loses digits. */
import { Serializer } from '@opensearch-project/opensearch';
import { stringifyJson } from './json-text.ts';

// plain JSON.parse semantics otherwise (a `__proto__` key is data, as the engine treats it)
const serializer = new Serializer({ enableLongNumeralSupport: true, disablePrototypePoisoningProtection: true });

/** Like JSON.parse; integers outside the safe range come back as BigInt. Throws on bad JSON. */
export function parseLong(text: string): unknown {
  return serializer.deserialize(text);
}

/** Like JSON.stringify (with indentation); a BigInt is written as its exact digits. */
export function stringifyLong(value: unknown, space?: number | string): string {
  return stringifyJson(value, space);
}
