/** How a failed REST call reads in a step's error: shared by the steps and the allocation setting. */
import { deniedText } from '../cluster/denied.ts';
import { errorOf } from '../cluster/shapes.ts';
import { redactText } from '../text/index.ts';

/** `type: reason` of an error body, or the status alone; a 401/403 names the missing permission and what to do. */
export function apiErrorText(statusCode: number, body: unknown): string {
  const denied = deniedText(statusCode, body);
  if (denied !== null) return redactText(denied);
  const e = errorOf(body);
  const what = typeof e === 'string' ? e : e?.type ? `${e.type}${e.reason ? `: ${e.reason}` : ''}` : '';
  return redactText(`HTTP ${statusCode}${what ? ` ${what}` : ''}`);
}
