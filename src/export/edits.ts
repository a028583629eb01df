/** The exact bytes each planned file edit leaves: the host's file read, checked against the plan's pin, edited as fix edits it. */
import type { ActionOf } from '../model/index.ts';
import { sha256 } from '../base/hash.ts';
import { redactConfigText } from '../text/index.ts';
import { decodeConfig, encodeConfig, setList, setScalar, unifiedDiff } from '../yamledit/index.ts';
import type { Transport } from '../transport/types.ts';

export type FileEdit = ActionOf<'set-yaml' | 'set-hosts'>;

/** What the playbook writes for one edit: the new bytes, the hash before and after, and whether it holds a secret. */
export interface EditedFile {
  bytes: Buffer;
  before: string;
  after: string;
  /** The file holds a secret-named value: the playbook hides its content (no_log, no diff). */
  secret: boolean;
}

export type EditResult = { ok: true; file: EditedFile } | { ok: false; why: string };

function recompute(a: FileEdit, text: string) {
  return a.type === 'set-hosts' ? setList(text, a.key, a.value.map(String)) : setScalar(text, a.key, a.value);
}

/** Pure: the edit of these bytes, refused unless they are what the plan was made from and give the plan's diff. */
export function editedBytes(a: FileEdit, bytes: Buffer): EditResult {
  const where = `${a.host}:${a.path}`;
  const before = sha256(bytes);
  if (a.base_sha256 === undefined)
    return { ok: false, why: `${where}: the plan pins no sha256 for it: run audit again` };
  if (before !== a.base_sha256)
    return {
      ok: false,
      why: `${where} changed since the plan (sha256 ${a.base_sha256.slice(0, 12)}… → ${before.slice(0, 12)}…): run audit again`,
    };
  const file = decodeConfig(bytes);
  if (file.refused) return { ok: false, why: `${where} cannot be edited safely: ${file.refused}` };
  const edit = recompute(a, file.text);
  if (!edit.ok) return { ok: false, why: `${where}: ${edit.errors[0]?.message ?? 'cannot be edited'}` };
  if (unifiedDiff(a.path, file.text, edit.text) !== a.diff)
    return { ok: false, why: `${where}: the edit no longer gives the planned diff: run audit again` };
  const out = encodeConfig(edit.text, file.encoding);
  if (!Buffer.isBuffer(out)) return { ok: false, why: `${where}: ${out.error}` };
  const secret = redactConfigText(file.text) !== file.text || redactConfigText(edit.text) !== edit.text;
  return { ok: true, file: { bytes: out, before, after: sha256(out), secret } };
}

/** Reads the file as bytes over the host's connection and edits it. */
export async function readEdit(a: FileEdit, transport: Transport): Promise<EditResult> {
  const raw = await transport.readFile(a.path, { privileged: true, binary: true });
  if (raw === null) return { ok: false, why: `${a.host}:${a.path} no longer exists: run audit again` };
  return editedBytes(a, Buffer.from(raw, 'latin1'));
}
