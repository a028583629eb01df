/**
 * The fix lease, as the play holds it: the document `smdoctor fix` takes (.smdoctor-lease/_doc/fix, the same fields),
 * created at the play's start (a held lease fails the play before any change), renewed before each step with its
 * sequence number, released in the play's `always:`. Not in check mode: a review run changes nothing, the lease neither.
 */
import { LEASE_INDEX, LEASE_PATH } from '../facts/lease-note.ts';
import { uri, v, type ClusterScope } from './tasks.ts';

type Task = Record<string, unknown>;

const running = { when: 'not ansible_check_mode', tags: ['always'] };

/** Expiry, as fix writes it (ISO 8601, UTC), smd_lease_seconds from now: read afresh at each renewal. */
export const LEASE_UNTIL =
  "{{ '%Y-%m-%dT%H:%M:%SZ' | strftime(now().timestamp() + (smd_lease_seconds | int), utc=true) }}";

/** Longer than the longest step (a restart waits twice): fix never sees a running play's lease expire. */
export const LEASE_SECONDS = '{{ 120 + 3 * ((smd_wait_retries | int) * (smd_wait_delay | int) + smd_timeout) }}';

const seq = (lease: string) =>
  `if_seq_no={{ ${lease}.json._seq_no }}&if_primary_term={{ ${lease}.json._primary_term }}`;

/** The tasks before the pins: the index, the lease created, and the play failed when someone else holds it. */
export function takeLease(s: ClusterScope): Task[] {
  const lease = v(s, 'lease');
  const index = v(s, 'lease_index');
  const held = v(s, 'lease_held');
  return [
    {
      name: 'Lease | who takes the fix lease, and since when',
      'ansible.builtin.set_fact': {
        [v(s, 'lease_doc')]: {
          holder: {
            user: "{{ lookup('ansible.builtin.env', 'USER') | default('ansible', true) }}",
            host: "{{ lookup('ansible.builtin.pipe', 'hostname') }}",
            pid: 0,
            command: 'ansible-playbook site.yml (smdoctor export ansible)',
          },
          started_at: "{{ '%Y-%m-%dT%H:%M:%SZ' | strftime(now().timestamp(), utc=true) }}",
          // renewed only between steps: a fix watches it unrenewed this long before it may take it over
          ttl_seconds: '{{ smd_lease_seconds | int }}',
        },
      },
      ...running,
    },
    {
      name: `Lease | the index ${LEASE_INDEX} (one shard, hidden), as fix makes it`,
      ...uri('PUT', `/${LEASE_INDEX}`, {
        body: { settings: { index: { number_of_shards: 1, auto_expand_replicas: '0-1', hidden: true } } },
        body_format: 'json',
        status_code: [200, 400],
      }),
      register: index,
      failed_when: `${index}.status != 200 and (${index}.json.error.type | default('')) != 'resource_already_exists_exception'`,
      // the lease is the play's bookkeeping, not a change it reports
      changed_when: false,
      ...running,
    },
    {
      name: 'Lease | take the fix lease (created only if nobody holds it)',
      ...uri('PUT', `${LEASE_PATH}?op_type=create&refresh=true`, {
        body: `{{ ${v(s, 'lease_doc')} | combine({'expires_at': smd_lease_until}) }}`,
        body_format: 'json',
        status_code: [200, 201, 409],
      }),
      register: lease,
      changed_when: false,
      ...running,
    },
    {
      name: 'Lease | who holds it',
      ...uri('GET', LEASE_PATH, { status_code: [200, 404] }),
      register: held,
      changed_when: false,
      when: `not ansible_check_mode and ${lease}.status == 409`,
      tags: ['always'],
    },
    {
      name: 'Lease | another run holds the fix lease: nothing was changed',
      'ansible.builtin.fail': {
        msg: `smdoctor fix (or this playbook) is running on this cluster: lease ${LEASE_PATH} held by {{ ${held}.json._source | default('a run that just ended') | to_json }}; nothing was changed. Run again once it has ended (if that run died: smdoctor fix --break-lease, or delete the document)`,
      },
      when: `not ansible_check_mode and ${lease}.status == 409`,
      tags: ['always'],
    },
  ];
}

/** Pushes the expiry forward before a step; a 409 means someone broke or took the lease: the play stops there. */
export function renewLease(s: ClusterScope, n: number): Task {
  const lease = v(s, 'lease');
  return {
    name: `Lease | renew the fix lease before step ${n} (fails if someone broke or took it)`,
    ...uri('PUT', `${LEASE_PATH}?${seq(lease)}`, {
      body: `{{ ${v(s, 'lease_doc')} | combine({'expires_at': smd_lease_until}) }}`,
      body_format: 'json',
    }),
    register: lease,
    changed_when: false,
    ...running,
  };
}

/** In `always:`: deleted if still ours (one someone broke is theirs now: a 409, left alone). */
export function releaseLease(s: ClusterScope): Task {
  const lease = v(s, 'lease');
  return {
    name: 'Lease | release the fix lease, whatever happened',
    ...uri('DELETE', `${LEASE_PATH}?${seq(lease)}`, { status_code: [200, 404, 409] }),
    changed_when: false,
    when: `not ansible_check_mode and ${lease}.json._seq_no is defined`,
    tags: ['always'],
  };
}
