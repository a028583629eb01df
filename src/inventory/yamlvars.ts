/** Variable files as Ansible loads them: YAML 1.1 (JSON included), whole-file vault, inline `!vault |` values. */
import { isScalar, LineCounter, parseDocument, visit, type Document, type ScalarTag, type Tags } from 'yaml';
import { InputError } from '../base/errors.ts';
import { markSecretValue } from '../text/index.ts';
import { withAliasLimit } from '../base/yaml-aliases.ts';
import type { Vars } from './types.ts';
import { decryptVault, fromAnsibleJson, isVaultText, VaultValue, type VaultKeys } from './vault.ts';
import { pyyamlStreamEnd, pyyamlTags } from './pyyaml.ts';

/** `!vault |` becomes a VaultValue; its line is filled in by positionVaults. */
export function vaultTag(file: string): ScalarTag {
  return { tag: '!vault', resolve: (s: string) => new VaultValue(s, { file }) as unknown as string };
}

/** Ansible's tags on top of PyYAML's resolvers. */
export function inventoryTags(file: string): (tags: Tags) => Tags {
  return (tags) => [...pyyamlTags(tags), vaultTag(file)];
}

/** Gives every inline vault value of the document its line. */
export function positionVaults(doc: Document, lc: LineCounter): void {
  visit(doc, {
    Scalar(_k, node) {
      if (node.value instanceof VaultValue && node.range)
        (node.value.pos as { line?: number }).line = lc.linePos(node.range[0]).line;
    },
  });
}

/** Every scalar of a tree decrypted from a vault file is a secret. */
function markAll(v: unknown): void {
  if (v instanceof VaultValue) return;
  if (v && typeof v === 'object') for (const x of Object.values(v)) markAll(x);
  else markSecretValue(v);
}

/** Reads a YAML/JSON text that must hold a mapping of variables (or nothing). */
export function parseVarsText(raw: string, file: string, vault: VaultKeys): Vars {
  const vaulted = isVaultText(raw);
  const text = vaulted ? decryptVault(raw, vault.secrets, { file, line: 1 }, vault.idMatch) : raw;
  const lc = new LineCounter();
  const doc = parseDocument(text, {
    version: '1.1',
    uniqueKeys: false,
    customTags: inventoryTags(file),
    lineCounter: lc,
    prettyErrors: true,
  });
  const err = doc.errors[0];
  if (err)
    throw new InputError(`YAML syntax: ${err.message.split('\n')[0]}`, {
      pos: { file, line: vaulted ? undefined : err.linePos?.[0].line },
    });
  positionVaults(doc, lc);
  pyyamlStreamEnd(doc, text);
  const root = doc.contents;
  if (root === null || (isScalar(root) && root.value === null)) return {};
  const js = withAliasLimit(file, (o) => doc.toJS(o)) as unknown;
  if (!js || typeof js !== 'object' || Array.isArray(js)) {
    const line = root.range ? lc.linePos(root.range[0]).line : undefined;
    throw new InputError('variables must be a mapping (name: value)', {
      pos: { file, line: vaulted ? undefined : line },
    });
  }
  // inline vault values are decrypted when read; a JSON file's {"__ansible_vault": ...} is one too
  const vars = (/^\s*\{/.test(text) ? fromAnsibleJson(js, file) : js) as Vars;
  if (vaulted) markAll(vars);
  return vars;
}
