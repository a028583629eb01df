/** A 401/403 of the REST API read as what the user must do: the missing permission from the reason, or the credentials. */
import t from 'tap';
import { deniedText } from '../../../src/cluster/denied.ts';
import { apiErrorText } from '../../../src/fix/api-error.ts';

const refusal = (reason: string) => ({
  error: { root_cause: [{ type: 'security_exception', reason }], type: 'security_exception', reason },
  status: 403,
});

t.test('403: the permission and the user from the security plugin reason', async (t) => {
  const body = refusal(
    'no permissions for [cluster:admin/settings/update] and User [name=auditor, backend_roles=[ro], requestedTenant=null]',
  );
  t.equal(
    deniedText(403, body),
    "HTTP 403 security_exception: user auditor lacks the permission cluster:admin/settings/update; grant it to one of that user's roles in the security plugin, or set api_username to a user that has it",
  );
  t.equal(apiErrorText(403, body), deniedText(403, body), 'fix steps say the same');
});

t.test('403 of another shape: its reason, and the advice', async (t) => {
  t.equal(
    deniedText(403, refusal('index [x] is read-only')),
    'HTTP 403 security_exception: index [x] is read-only; the user smdoctor signs in as is not allowed this request: grant it the permission',
  );
  t.match(deniedText(403, 'Forbidden'), /^HTTP 403 forbidden; /);
});

t.test('401: the credentials, whatever the body', async (t) => {
  for (const body of ['Unauthorized', null, refusal('x')])
    t.match(deniedText(401, body), /^HTTP 401 Unauthorized: .*set api_username and api_password_file/);
});

t.test('other statuses are not refusals', async (t) => {
  t.equal(deniedText(404, refusal('x')), null);
  t.equal(
    apiErrorText(409, { error: { type: 'version_conflict_engine_exception', reason: 'r' } }),
    'HTTP 409 version_conflict_engine_exception: r',
  );
});
