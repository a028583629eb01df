/** Validators for OpenSearch's own response schemas (test/fixtures/opensearch-spec, bundled from the official spec). */
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

interface Bundle {
  commit: string;
  responses: Record<string, object>;
  error: object;
  $defs: Record<string, object>;
}

const bundle = JSON.parse(
  readFileSync(new URL('../fixtures/opensearch-spec/responses.json', import.meta.url), 'utf8'),
) as Bundle;

// the spec is OpenAPI 3.1: JSON Schema 2020-12 plus its own keywords (x-version-added, discriminator…)
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true, allowUnionTypes: true });
ajv.addSchema({ $id: 'spec', $defs: bundle.$defs });
const compiled = new Map<string, ValidateFunction>();

const rewrite = (s: object): object => JSON.parse(JSON.stringify(s).replaceAll('"#/$defs/', '"spec#/$defs/')) as object;

function validator(id: string): ValidateFunction {
  let v = compiled.get(id);
  if (!v) {
    const schema = id === 'error' ? bundle.error : bundle.responses[id];
    if (!schema) throw new Error(`no response schema ${id} in the bundle`);
    v = ajv.compile(rewrite(schema));
    compiled.set(id, v);
  }
  return v;
}

export const specCommit = bundle.commit;

/** The spec's complaints about a body for a response id (`cat.nodes@200`, or `error`), one line each; [] when valid. */
export function specErrors(id: string, body: unknown): string[] {
  const v = validator(id);
  if (v(body)) return [];
  return (v.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}
