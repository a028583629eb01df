/** The plan: what fix will do, one action per kind with exactly its fields. Plain JSON, the report carries it. */

export const ACTION_STATUSES = ['planned', 'done', 'failed', 'skipped'] as const;
export type ActionStatus = (typeof ACTION_STATUSES)[number];

/** What every action carries: its status and, after fix, what became of it. */
interface ActionBase {
  status: ActionStatus;
  /** fix: why it failed (redacted). */
  error?: string;
  /** fix: local path of the saved old content of an edited file. */
  backup?: string;
  /** fix: why the action was skipped, or what it found. */
  reason?: string;
  /** fix: what the step showed (verify-shards: the `_cat/shards?v=true` table). */
  output?: string;
}

/** PUT the base limit document: `op_type=create` when it was absent, else optimistic concurrency on the version read. */
export interface PutDocumentAction extends ActionBase {
  type: 'put-document';
  method: 'PUT';
  api_path: string;
  body: unknown;
  /** The document was absent at audit time, so fix creates it and never overwrites one that appeared since. */
  op_type?: 'create';
  if_seq_no?: number;
  if_primary_term?: number;
}

/** A comment-keeping edit of one YAML key; fix re-checks the file's hash and the diff before writing. */
interface FileEdit extends ActionBase {
  host: string;
  path: string;
  key: string;
  /** Unified diff of exactly what fix will write. */
  diff: string;
  /** sha256 (hex) of the file content the diff was computed against. */
  base_sha256?: string;
}

export interface SetYamlAction extends FileEdit {
  type: 'set-yaml';
  value: string | number | boolean;
}

export interface SetHostsAction extends FileEdit {
  type: 'set-hosts';
  value: string[];
}

export interface RemovePluginAction extends ActionBase {
  type: 'remove-plugin';
  host: string;
  /** The plugin's name. */
  value: string;
  /** The exact remote command. */
  command: string;
}

export interface RemoveKeystoreEntryAction extends ActionBase {
  type: 'remove-keystore-entry';
  host: string;
  key: string;
  command: string;
  /** Not listed at audit time (keystore not read): fix treats "does not exist" as done. */
  if_present?: boolean;
}

export interface RestartServiceAction extends ActionBase {
  type: 'restart-service';
  host: string;
  /** `<engine>` or `<engine>-dashboards`. */
  service: string;
  command: string;
}

export interface PutSettingsAction extends ActionBase {
  type: 'put-settings';
  method: 'PUT';
  api_path: string;
  body: unknown;
}

export interface VerifyShardsAction extends ActionBase {
  type: 'verify-shards';
  method: 'GET';
  api_path: string;
}

/** `cluster.routing.allocation.enable` back to unset, persistent and transient (fix does it first in its cluster). */
export interface ResetAllocationAction extends ActionBase {
  type: 'reset-allocation';
  method: 'PUT';
  api_path: string;
  body: unknown;
}

type Kinds =
  | PutDocumentAction
  | SetYamlAction
  | SetHostsAction
  | RemovePluginAction
  | RemoveKeystoreEntryAction
  | RestartServiceAction
  | PutSettingsAction
  | VerifyShardsAction
  | ResetAllocationAction;

type KeysOf<T> = T extends unknown ? keyof T : never;
type AnyKey = KeysOf<Kinds>;
/** A kind with the other kinds' fields absent: code that handles any action may read `a.host`, none may set it where it does not belong. */
type Only<T> = T & { [K in Exclude<AnyKey, keyof T>]?: undefined };

/** One planned step; `type` says which fields it has. */
export type Action =
  | Only<PutDocumentAction>
  | Only<SetYamlAction>
  | Only<SetHostsAction>
  | Only<RemovePluginAction>
  | Only<RemoveKeystoreEntryAction>
  | Only<RestartServiceAction>
  | Only<PutSettingsAction>
  | Only<VerifyShardsAction>
  | Only<ResetAllocationAction>;

export type ActionType = Action['type'];

/** The action of one kind. */
export type ActionOf<K extends ActionType> = Extract<Action, { type: K }>;
