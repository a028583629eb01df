#!/usr/bin/env node
/**
 * Bundles the response schemas of the OpenSearch API specification that smdoctor and its lab use into one
 * self-contained JSON Schema file (test/fixtures/opensearch-spec/responses.json). Schemas are copied as the spec
 * writes them; only `$ref`s are rewritten to point into the bundle's `$defs`.
 *
 *   node scripts/port-opensearch-spec.mjs <bare git dir of opensearch-project/opensearch-api-specification>
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync, mkdirSync } from 'node:fs';
import { posix } from 'node:path';
import { parse } from 'yaml';

const RESPONSES = [
  'cat.nodes@200',
  'cat.nodeattrs@200',
  'cat.plugins@200',
  'cat.shards@200',
  'cat.indices@200',
  'cat.cluster_manager@200',
  'cat.master@200',
  'cluster.health@200',
  'cluster.get_settings@200',
  'cluster.put_settings@200',
  'indices.get_settings@200',
  'indices.put_settings@200',
  'indices.flush@200',
  'indices.get_mapping@200',
  'indices.get_field_mapping@200',
  'indices.refresh@200',
  'info@200',
  'get@200',
  'get@404',
  'index@200',
  'index@201',
  'create@201',
  'delete@200',
  'delete@404',
  'search@200',
  'scroll@200',
  'clear_scroll@200',
  'create_pit@200',
  'delete_pit@200',
  'count@200',
  'cat.allocation@200',
  'nodes.info@200',
  'nodes.stats@200',
];
const NAMESPACE = { cat: 'cat', cluster: 'cluster', indices: 'indices', nodes: 'nodes' };
const ERROR = ['schemas/_common.yaml', 'ErrorResponseBase'];

const dir = process.argv[2];
if (!dir) throw new Error('usage: port-opensearch-spec.mjs <git dir of opensearch-api-specification>');
const git = (...a) => execFileSync('git', ['--git-dir', dir, ...a], { encoding: 'utf8', maxBuffer: 1 << 28 });
const commit = git('rev-parse', 'HEAD').trim();
const files = new Map();
const doc = (file) => {
  if (!files.has(file)) files.set(file, parse(git('show', `HEAD:spec/${file}`)));
  return files.get(file);
};

const defs = {};
const defName = (file, name) => `${posix.basename(file, '.yaml')}:${name}`;

/** Copies a schema, turning every $ref into `#/$defs/<file>:<name>` and pulling the target in. */
function copy(node, file) {
  if (Array.isArray(node)) return node.map((n) => copy(n, file));
  if (typeof node !== 'object' || node === null) return node;
  const out = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === '$ref' && typeof v === 'string') {
      const [rel, pointer] = v.split('#');
      const target = rel ? posix.normalize(posix.join(posix.dirname(file), rel)) : file;
      const name = pointer.split('/').pop();
      out.$ref = `#/$defs/${pull(target, name)}`;
    } else out[k] = copy(v, file);
  }
  return out;
}

function pull(file, name) {
  const key = defName(file, name);
  if (!(key in defs)) {
    defs[key] = {};
    const schema = doc(file).components.schemas[name];
    if (!schema) throw new Error(`${file}: no schema ${name}`);
    defs[key] = copy(schema, file);
  }
  return key;
}

const responses = {};
for (const id of RESPONSES) {
  const ns = NAMESPACE[id.split('.')[0]] ?? '_core';
  const file = `namespaces/${ns}.yaml`;
  const res = doc(file).components.responses[id];
  if (!res) throw new Error(`${file}: no response ${id}`);
  const schema = res.content?.['application/json']?.schema;
  if (!schema) throw new Error(`${id}: no application/json schema`);
  responses[id] = copy(schema, file);
}
const bundle = {
  $comment: `Response schemas of opensearch-project/opensearch-api-specification @ ${commit} (spec/), Apache-2.0; bundled by scripts/port-opensearch-spec.mjs`,
  commit,
  responses,
  error: { $ref: `#/$defs/${pull(...ERROR)}` },
  $defs: defs,
};
const out = 'test/fixtures/opensearch-spec';
mkdirSync(out, { recursive: true });
writeFileSync(`${out}/responses.json`, JSON.stringify(bundle, null, 1) + '\n');
for (const f of ['LICENSE.txt', 'NOTICE.txt']) writeFileSync(`${out}/${f}`, git('show', `HEAD:${f}`));
console.log(`${Object.keys(responses).length} responses, ${Object.keys(defs).length} schemas from ${commit}`);
