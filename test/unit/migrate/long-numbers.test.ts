/** 64-bit integers: parsed exactly, written back as the same digits, and never a crash in a report. */
import t from 'tap';
import { parseLong, stringifyLong } from '../../../src/base/json-long.ts';
import { formatJsonField, parseJsonField } from '../../../src/migrate/stored/jsonfield.ts';

t.test('64-bit integers: parse and stringify keep the digits; other values as JSON does', async (t) => {
  const text = '{"a": 1234567890123456789, "b": [-9223372036854775808, 1.5, 2], "c": "\\u0000x:1", "d": null}';
  const v = parseLong(text) as { a: unknown; b: unknown[] };
  t.equal(typeof v.a, 'bigint');
  t.equal(String(v.a), '1234567890123456789');
  t.equal(v.b[2], 2);
  t.equal(stringifyLong(v), '{"a":1234567890123456789,"b":[-9223372036854775808,1.5,2],"c":"\\u0000x:1","d":null}');
  t.equal(stringifyLong(v, 2).split('\n')[1], '  "a": 1234567890123456789,');
});

t.test('64-bit integers: a dashboard json string re-serialised keeps them', async (t) => {
  const raw = '{\n  "rows": [],\n  "fingerprint": 1234567890123456789\n}';
  const p = parseJsonField(raw);
  if ('error' in p) return t.fail(p.error);
  t.equal(formatJsonField(p.value, p.style), raw);
});
