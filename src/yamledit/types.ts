/** Shapes shared by the comment-keeping YAML reader and editor. */

/** A problem in a YAML text, 1-based line and column. Never thrown: returned alongside a result. */
export interface YamlIssue {
  /** yaml's error code (DUPLICATE_KEY, BAD_INDENT, …) or ours (NOT_A_MAP, NOT_A_LIST, EMPTY_LIST, EDIT_VERIFY, ALIAS_LIMIT). */
  code: string;
  message: string;
  line: number;
  col: number;
}

/** How the value was written, so an edit can write it the same way. */
export type YamlStyle = 'plain' | 'single' | 'double' | 'block-scalar' | 'flow-seq' | 'block-seq' | 'map';

/** A dotted key found in a config, however it was spelled (flat, nested or mixed). */
export interface YamlValue {
  key: string;
  /** The value as plain JS (toJSON). */
  value: unknown;
  /** 1-based position of the value (of the key when the value is empty). */
  line: number;
  col: number;
  style: YamlStyle;
}

export interface ReadResult {
  /** Null when the key is absent (or the text is unusable: see errors). */
  found: YamlValue | null;
  errors: YamlIssue[];
}

export interface EditResult {
  /** False when the edit was refused: text is then the original and errors say why. */
  ok: boolean;
  text: string;
  changed: boolean;
  errors: YamlIssue[];
  /** 1-based line of the written value. */
  line?: number;
}
