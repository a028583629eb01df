/** A pack or waivers file read as YAML data, with every problem placed at file:line:col from the parser's ranges. */
import { isAlias, isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import { aliasBombMessage, YAML_LIMITS } from '../../base/yaml-aliases.ts';

export interface PackProblem {
  file: string;
  line?: number;
  col?: number;
  message: string;
}

export type Path = ReadonlyArray<string | number>;

/** What to write instead of a plain value holding `: ` (YAML reads a colon and a space as a key). */
function colonHint(line: string): string {
  const key = /^\s*(?:-\s+)?([A-Za-z0-9_.-]+):\s/.exec(line)?.[1];
  const what = key ? `the value of '${key}'` : 'this value';
  const example = key ? ` (${key}: "…: …", or ${key}: >- and the text on the next lines)` : '';
  return `YAML: ${what} holds ': ' (a colon and a space), which YAML reads as the start of a mapping: quote the whole value${example}`;
}

/** The parsed document: its plain value, and where each path of it was written. */
export class Positioned {
  readonly problems: PackProblem[] = [];
  readonly value: unknown;
  private readonly lc = new LineCounter();
  private readonly doc: Document.Parsed;

  readonly file: string;
  constructor(file: string, text: string) {
    this.file = file;
    // YAML 1.2 core: dates stay strings, `<<` is an ordinary (so unknown) key; duplicate keys are errors
    this.doc = parseDocument(text, { lineCounter: this.lc, uniqueKeys: true, prettyErrors: true });
    const lines = text.split(/\r?\n/);
    const colonLines = new Set<number>();
    for (const e of [...this.doc.errors, ...this.doc.warnings]) {
      const at = e.linePos?.[0];
      // `why: STIG: …` unquoted: YAML sees a mapping in a mapping, once per colon; say it once, with the fix
      if (e.code === 'BLOCK_AS_IMPLICIT_KEY' && at) {
        if (!colonLines.has(at.line)) this.add(at, colonHint(lines[at.line - 1] ?? ''));
        colonLines.add(at.line);
        continue;
      }
      this.add(at, `YAML: ${e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`);
    }
    let value: unknown = undefined;
    if (!this.doc.errors.length) {
      try {
        value = this.doc.toJS(YAML_LIMITS);
      } catch (e) {
        if (!(e instanceof ReferenceError && /alias/i.test(e.message))) throw e;
        this.add({ line: 1, col: 1 }, aliasBombMessage());
      }
    }
    this.value = value;
  }

  private add(lp: { line: number; col: number } | undefined, message: string): void {
    this.problems.push({ file: this.file, ...(lp ? { line: lp.line, col: lp.col } : {}), message });
  }

  /** A problem at the value of `path` (or at its key: an unknown key is marked where it is written). */
  problem(path: Path, message: string, at: 'value' | 'key' = 'value'): void {
    const node = this.nodeAt(path, at);
    this.add(node?.range ? this.lc.linePos(node.range[0]) : { line: 1, col: 1 }, message);
  }

  /** The line where the value at `path` is written. */
  lineOf(path: Path): number {
    const node = this.nodeAt(path, 'value');
    return node?.range ? this.lc.linePos(node.range[0]).line : 1;
  }

  /** The deepest node written along the path: a problem under a missing key is placed at its parent. */
  private nodeAt(path: Path, at: 'value' | 'key'): Node | undefined {
    let node: unknown = this.doc.contents;
    for (const [i, seg] of path.entries()) {
      if (isAlias(node)) node = node.resolve(this.doc);
      let next: unknown = undefined;
      if (isMap(node)) {
        const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(seg));
        if (pair) next = at === 'key' && i === path.length - 1 ? pair.key : pair.value;
      } else if (isSeq(node) && typeof seg === 'number') next = node.items[seg];
      if (next == null || !(next as Node).range) break;
      node = next;
    }
    return node as Node | undefined;
  }
}
