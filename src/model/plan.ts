/** The plan: what fix will do. Plain JSON, the report carries it. */

export type ActionType =
  | 'put-document'
  | 'set-yaml'
  | 'set-hosts'
  | 'remove-plugin'
  | 'remove-keystore-entry'
  | 'restart-service'
  | 'put-settings'
  | 'verify-shards'
  /** `cluster.routing.allocation.enable` back to unset, persistent and transient (fix does it first in its cluster). */
  | 'reset-allocation';

export type ActionStatus = 'planned' | 'done' | 'failed' | 'skipped';

export interface Action {
  type: ActionType;
  /** Inventory host name; absent for REST actions. */
  host?: string;
  /** File edits. */
  path?: string;
  key?: string;
  value?: unknown;
  /** Unified diff of exactly what fix will write. */
  diff?: string;
  /** Remote commands: the exact text. */
  command?: string;
  /** restart-service: `<engine>` or `<engine>-dashboards`. */
  service?: string;
  /** REST actions. */
  method?: 'GET' | 'PUT' | 'POST';
  api_path?: string;
  body?: unknown;
  status: ActionStatus;
  error?: string;
  /** The thing to remove may already be gone (keystore not listed): fix treats "does not exist" as done. */
  if_present?: boolean;
  /** put-document: the document was absent at audit time, so fix creates it and never overwrites one that appeared since. */
  op_type?: 'create';
  /** put-document: optimistic concurrency on the document the audit read. */
  if_seq_no?: number;
  if_primary_term?: number;
  /** set-yaml/set-hosts: sha256 (hex) of the file content the diff was computed against. */
  base_sha256?: string;
  /** fix: local path of the saved old content of an edited file. */
  backup?: string;
  /** fix: why the action was skipped, or what it found. */
  reason?: string;
  /** fix: what the step showed (verify-shards: the `_cat/shards?v=true` table). */
  output?: string;
}
