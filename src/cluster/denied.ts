/** What a 401 or 403 of the REST API means to the user: the permission that is missing, and what to do. */
import { errorOf } from './shapes.ts';

const NO_PERMISSION = /no permissions for \[([^\]]+)\] and User \[name=([^,\]]*)/;

/** The security plugin's refusal as advice, or null when the status is not a refusal. */
export function deniedText(statusCode: number, body: unknown): string | null {
  if (statusCode === 401) {
    return (
      "HTTP 401 Unauthorized: the cluster refused smdoctor's credentials (none were sent, or the user or password is wrong); " +
      'set api_username and api_password_file (or api_password_env) for this cluster in the inventory'
    );
  }
  if (statusCode !== 403) return null;
  const e = errorOf(body);
  const reason = typeof e === 'string' ? e : (e?.reason ?? '');
  const type = typeof e === 'object' ? (e.type ?? 'forbidden') : 'forbidden';
  const m = NO_PERMISSION.exec(reason);
  if (m) {
    return (
      `HTTP 403 ${type}: user ${m[2]} lacks the permission ${m[1]}; ` +
      `grant it to one of that user's roles in the security plugin, or set api_username to a user that has it`
    );
  }
  return `HTTP 403 ${type}${reason ? `: ${reason}` : ''}; the user smdoctor signs in as is not allowed this request: grant it the permission`;
}
