/** Ansible's yaml inventory plugin, with every problem positioned by line and column. */
import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node, type Pair } from 'yaml';
import type { InventoryBuilder } from './builder.ts';
import { expandHostPattern } from './ranges.ts';
import { checkAddress } from './validate.ts';
import { pyyamlStreamEnd } from './pyyaml.ts';
import { inventoryTags, positionVaults } from './yamlvars.ts';
import { InputError } from '../base/errors.ts';
import { aliasBombMessage, MAX_YAML_ALIASES, withAliasLimit } from '../base/yaml-aliases.ts';

type AnyNode = Node | null | undefined;

export class YamlInventoryReader {
  private readonly lc = new LineCounter();
  private doc!: Document.Parsed;
  /** Aliases the group walk went through: children aliasing the level below twice double the walk per level. */
  private walked = 0;
  private readonly b: InventoryBuilder;
  constructor(b: InventoryBuilder) {
    this.b = b;
  }

  /** False when the text is not a YAML mapping at all (Ansible then lets the INI plugin try). */
  read(text: string): boolean {
    // PyYAML is YAML 1.1: yes/no are booleans, duplicate keys are allowed (the last wins)
    this.doc = parseDocument(text, {
      version: '1.1',
      uniqueKeys: false,
      customTags: inventoryTags(this.b.file),
      lineCounter: this.lc,
      prettyErrors: true,
    });
    for (const e of this.doc.errors) {
      const lp = e.linePos?.[0];
      this.b.error(`YAML syntax: ${e.message.split('\n')[0]}`, lp?.line, lp?.col);
    }
    if (this.doc.errors.length) return false;
    positionVaults(this.doc, this.lc);
    pyyamlStreamEnd(this.doc, text);
    const root = this.resolve(this.doc.contents);
    if (!isMap(root)) return false;
    const plugin = root.items.find((p) => this.keyOf(p) === 'plugin');
    if (plugin && this.value(plugin.value)) {
      const cmd = `ansible-inventory -i ${this.b.file} --list > inv.json`;
      this.b.error(
        `an inventory plugin configuration (plugin: ${String(this.value(plugin.value))}) is not read directly: run \`${cmd}\`, then pass -i inv.json`,
        ...this.at(plugin.key),
      );
      return true;
    }
    for (const p of root.items) this.group(p);
    return true;
  }

  private at(n: unknown): [number?, number?] {
    const r = (n as Node | undefined)?.range;
    if (!r) return [];
    const { line, col } = this.lc.linePos(r[0]);
    return [line, col];
  }

  private resolve(n: unknown): AnyNode {
    return isAlias(n) ? (n.resolve(this.doc) as AnyNode) : (n as AnyNode);
  }

  /** resolve() for the group walk: past MAX_YAML_ALIASES aliases followed it is an alias bomb (exit 2). */
  private walk(n: unknown): AnyNode {
    if (isAlias(n) && ++this.walked > MAX_YAML_ALIASES) {
      const [line, col] = this.at(n);
      throw new InputError(aliasBombMessage(), { pos: { file: this.b.file, line, col } });
    }
    return this.resolve(n);
  }

  private keyOf(p: Pair): unknown {
    return isScalar(p.key) ? p.key.value : p.key;
  }

  private value(n: unknown): unknown {
    const r = this.resolve(n);
    return r == null ? null : isScalar(r) ? r.value : withAliasLimit(this.b.file, (o) => r.toJS(this.doc, o));
  }

  private isNull(n: AnyNode): boolean {
    return n == null || (isScalar(n) && n.value == null);
  }

  /** _parse_group: returns the group's name when it was defined, undefined when skipped. */
  private group(p: Pair): string | undefined {
    const name = this.keyOf(p);
    const node = this.walk(p.value);
    if (typeof name !== 'string' || name === '') {
      this.b.error(`group name must be a non-empty string, got ${JSON.stringify(name)}`, ...this.at(p.key));
      return undefined;
    }
    if (!this.isNull(node) && !isMap(node)) {
      this.b.warn(`skipping '${name}': a group must be a mapping with hosts, children or vars`, ...this.at(p.key));
      return undefined;
    }
    this.b.addGroup(name);
    if (!isMap(node)) return name;
    for (const s of node.items) {
      const key = this.keyOf(s);
      let v = key === 'children' ? this.walk(s.value) : this.resolve(s.value);
      if (key === 'hosts' || key === 'children' || key === 'vars') {
        // a bare string is accepted as a one-entry mapping
        if (isScalar(v) && typeof v.value === 'string') {
          this.section(name, key, [{ key: v, value: null } as unknown as Pair]);
          continue;
        }
        if (!this.isNull(v) && !isMap(v)) {
          const kind = isSeq(v) ? 'a list' : `a ${typeof this.value(v)}`;
          this.b.error(
            `"${key}" of group "${name}" must be a mapping (name: ...), found ${kind}`,
            ...this.at(v ?? s.key),
          );
          continue;
        }
      } else if (!this.isNull(v) && !isMap(v)) {
        this.b.warn(`skipping key '${String(key)}' in group '${name}': it is not a mapping`, ...this.at(s.key));
        continue;
      }
      if (this.isNull(v)) continue;
      if (key !== 'hosts' && key !== 'children' && key !== 'vars') {
        this.b.warn(
          `skipping unexpected key '${String(key)}' in group '${name}': only vars, children and hosts are valid`,
          ...this.at(s.key),
        );
        continue;
      }
      v = v as Node;
      this.section(name, key, (v as unknown as { items: Pair[] }).items, v);
    }
    return name;
  }

  private section(group: string, key: 'hosts' | 'children' | 'vars', items: Pair[], map?: Node): void {
    if (key === 'vars') {
      const vars = map
        ? (withAliasLimit(this.b.file, (o) => map.toJS(this.doc, o)) as Record<string, unknown>)
        : { [String(this.keyOf(items[0]))]: null };
      for (const [k, v] of Object.entries(vars ?? {})) this.b.setGroupVar(group, k, v);
      return;
    }
    for (const item of items) {
      if (key === 'children') {
        const child = this.group(item);
        if (child === undefined) {
          this.b.error(
            `child '${String(this.keyOf(item))}' of group '${group}' is not a valid group`,
            ...this.at(item.key),
          );
          continue;
        }
        const cycle = this.b.addChild(group, child);
        if (cycle) this.b.error(`children form a cycle: ${cycle.join(' -> ')}`, ...this.at(item.key));
      } else this.host(group, item);
    }
  }

  private host(group: string, item: Pair): void {
    const pattern = this.keyOf(item);
    const pos = this.at(item.key);
    if (typeof pattern !== 'string') {
      this.b.error(`host name ${JSON.stringify(pattern)} must be a string; enclose numbers in quotes`, ...pos);
      return;
    }
    const vnode = this.resolve(item.value);
    const vars = this.isNull(vnode) ? {} : this.value(vnode);
    if (typeof vars !== 'object' || vars === null || Array.isArray(vars)) {
      this.b.error(`variables of host '${pattern}' must be a mapping (key: value)`, ...this.at(vnode));
      return;
    }
    let hosts: string[];
    let port: number | undefined;
    try {
      if (!this.b.room()) return;
      ({ hosts, port } = expandHostPattern(pattern, this.b.room()));
    } catch (e) {
      this.b.error(`host pattern '${pattern}': ${(e as Error).message}`, ...pos);
      return;
    }
    if (!this.b.admit(hosts, pattern, ...pos)) return;
    for (const h of hosts) {
      if (!checkAddress(this.b, h, vars as Record<string, unknown>, ...pos)) continue;
      this.b.addHost(h, group, port);
      for (const [k, v] of Object.entries(vars)) this.b.setHostVar(h, k, v);
    }
  }
}
