/** A host's YAML is parsed once: gather, correlate and the checks read the same parse, and the facts stay plain data. */
import t from 'tap';
import { parsedFile } from '../../../src/facts/yml.ts';
import { engineFile } from '../../../src/checks/node-file.ts';
import { nodeHost } from '../../helpers/checks/facts.ts';

const spec = { name: 'n1', ip: '10.0.0.11', roles: ['cluster_manager', 'data'], sme: false, plugins: [] };

t.test('every reader of one gathered file gets the same parse', async (t) => {
  const h = nodeHost(spec);
  const first = engineFile(h);
  const again = engineFile(h);
  t.ok('parsed' in first && 'parsed' in again);
  if (!('parsed' in first) || !('parsed' in again)) return;
  t.equal(again.parsed, first.parsed, 'the second check reads the first parse, it does not parse again');
  t.equal(parsedFile(h.engineYml!).doc, first.parsed, 'correlate and gather read the same one');
});

t.test('the parse is kept beside the facts, not in them', async (t) => {
  const h = nodeHost(spec);
  engineFile(h);
  t.same(Object.keys(h.engineYml!).sort(), ['path', 'text']);
  t.equal(JSON.parse(JSON.stringify(h)).engineYml.text, h.engineYml!.text);
});

t.test('a file whose text changed is parsed again', async (t) => {
  const h = nodeHost(spec);
  const before = parsedFile(h.engineYml!).doc;
  h.engineYml!.text = h.engineYml!.text.replace('cluster_manager, data', 'data');
  const after = parsedFile(h.engineYml!).doc;
  t.not(after, before);
  t.equal(after.text, h.engineYml!.text);
});

t.test('another file with the same path and text is its own file', async (t) => {
  const a = nodeHost(spec);
  const b = nodeHost(spec);
  t.not(parsedFile(b.engineYml!).doc, parsedFile(a.engineYml!).doc);
});
