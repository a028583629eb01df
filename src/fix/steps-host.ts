/** Host steps: comment-keeping file edits re-checked against the audit, and the planned remove commands. */
import type { ActionOf } from '../model/index.ts';
import { NO_KEYSTORE } from '../model/index.ts';
import { sha256 } from '../base/hash.ts';
import { redactText } from '../text/index.ts';
import { decodeConfig, encodeConfig, setList, setScalar, unifiedDiff } from '../yamledit/index.ts';
import { errText } from '../base/errors.ts';
import type { StepEnv, StepResult } from './types.ts';

/** The tools' documented "not found / does not exist" exit code. */
export const NOT_FOUND = 78;

function recompute(action: ActionOf<'set-yaml' | 'set-hosts'>, text: string) {
  if (action.type === 'set-hosts') return setList(text, action.key, action.value.map(String));
  return setScalar(text, action.key, action.value);
}

/**
 * Re-read the bytes, check they are exactly what the audit planned from, redo the edit and check it gives the
 * planned diff, keep the bytes read locally, then write atomically: every byte outside the changed value stays.
 */
export async function editFile(a: ActionOf<'set-yaml' | 'set-hosts'>, env: StepEnv): Promise<StepResult> {
  const t = await env.transport(a.host);
  const path = a.path;
  // a byte string (one char per byte): no decoding can lose what is not UTF-8
  const raw = await t.readFile(path, { privileged: true, binary: true });
  if (raw === null) return { status: 'failed', error: `${path} no longer exists on ${a.host}: re-run audit` };
  const bytes = Buffer.from(raw, 'latin1');
  if (a.base_sha256 !== undefined && sha256(bytes) !== a.base_sha256) {
    return { status: 'failed', error: `${path} changed since the audit: re-run audit (nothing written)` };
  }
  const file = decodeConfig(bytes);
  if (file.refused)
    return { status: 'failed', error: `${path} cannot be edited safely: ${file.refused} (nothing written)` };
  const text = file.text;
  const edit = recompute(a, text);
  if (!edit.ok)
    return { status: 'failed', error: `${path}: ${edit.errors[0]?.message ?? 'cannot be edited'} (nothing written)` };
  if (unifiedDiff(path, text, edit.text) !== a.diff) {
    return {
      status: 'failed',
      error: `${path}: the edit no longer gives the planned diff: re-run audit (nothing written)`,
    };
  }
  const out = encodeConfig(edit.text, file.encoding);
  if (!Buffer.isBuffer(out)) return { status: 'failed', error: `${path}: ${out.error} (nothing written)` };
  let backup: string;
  try {
    backup = await env.backup.save(a.host, path, bytes);
  } catch (err) {
    return {
      status: 'failed',
      error: `cannot keep a backup of ${path} under ${env.backup.dir}: ${errText(err)} (nothing written)`,
    };
  }
  const res = await t.writeFileAtomic(path, out.toString('latin1'), { privileged: true, binary: true });
  if (res.backup !== null && res.backup !== raw) {
    // changed between our read and the write: what was replaced is kept too, and the user must look
    const replaced = await env.backup.save(a.host, path, Buffer.from(res.backup, 'latin1'));
    return {
      status: 'failed',
      backup,
      error: `${path} changed while it was being written; the replaced content is in ${replaced}`,
    };
  }
  return { status: 'done', backup };
}

/** The planned command text exactly (it carries any sudo); 78 means already gone. */
export async function removeCommand(
  a: ActionOf<'remove-plugin' | 'remove-keystore-entry'>,
  env: StepEnv,
): Promise<StepResult> {
  const t = await env.transport(a.host);
  const r = await t.exec(a.command);
  if (r.code === 0) return { status: 'done' };
  if (r.code === NOT_FOUND) return { status: 'skipped', reason: 'already absent' };
  if (r.code === NO_KEYSTORE && a.type === 'remove-keystore-entry')
    return { status: 'skipped', reason: 'already absent (no keystore)' };
  const err = redactText(r.stderr.trim() || r.stdout.trim());
  return { status: 'failed', error: `exit ${r.code}${err ? `: ${err}` : ''}` };
}
