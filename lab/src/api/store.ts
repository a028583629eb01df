import { randomBytes } from 'node:crypto';
import type { IndexStoreLike, ScenarioIndex } from '../model.ts';
import { ApiFailure, badRequest, indexNotFound } from './errors.ts';
import { expandedReplicas, parseAutoExpand } from './autoexpand.ts';
import { mergeDynamic, type Mappings } from './fields.ts';
import { normalizeIndexSettings, type Flat } from './tree.ts';
import { DEFAULT_TIMING, allocateIndex, nodeLeft, resizeCopies, type AllocTiming, type Enable } from './alloc.ts';
import { DocMap, type DocRecord } from './docmap.ts';
import type { IndexRecord } from './records.ts';
import { aliasTable, concreteName } from './aliases.ts';
import { checkCas, versionConflict, type CasOptions } from './cas.ts';
import { checkIndexSettingKeys } from './indexsettings.ts';

/** Index version id of OpenSearch 2.11.0 as version.created shows it. */
export const VERSION_CREATED = '136327827';

/** `_cluster/settings`: flat keys, string values. */
export interface ClusterSettings {
  persistent: Flat;
  transient: Flat;
}

export const ALLOCATION_ENABLE = 'cluster.routing.allocation.enable';

export interface PutDocOptions {
  ifSeqNo?: number;
  ifPrimaryTerm?: number;
  /** op_type=create / _create: an existing document is a conflict. */
  create?: boolean;
}

// Settings that cannot change on an open index.
const STATIC = [
  'index.number_of_shards',
  'index.uuid',
  'index.creation_date',
  'index.provided_name',
  'index.version.created',
];

// the index settings the Search Service creates its limits index with, shown besides the usual ones
const LIMITS_INDEX = '.sm_sme_limits_user';
const LIMITS_DEFAULTS: Flat = {
  'index.refresh_interval': '1s',
  'index.max_result_window': '10000',
  'index.priority': '10000',
  'index.version.upgraded': VERSION_CREATED,
};

export const newUuid = () => randomBytes(16).toString('base64url').slice(0, 22);

function invalidName(name: string): string | null {
  if (name !== name.toLowerCase()) return 'must be lowercase';
  if (/^[_\-+]/.test(name)) return "must not start with '_', '-', or '+'";
  if (/[\\/*?"<>| ,#:]/.test(name) || name === '.' || name === '..')
    return 'must not contain the following characters [ , ", *, \\, <, |, ,, >, /, ?]';
  return null;
}

export class IndexStore implements IndexStoreLike {
  private indices = new Map<string, IndexRecord>();
  /** Up data nodes of the last reallocate(), or null before the first one. */
  dataNodes: string[] | null = null;
  /** Called after every change, so the daemon can persist the store. */
  onChange?: () => void;
  clusterSettings: ClusterSettings = { persistent: {}, transient: {} };
  timing: AllocTiming = { ...DEFAULT_TIMING };
  /** Told each allocation event (promotion, recovery, relocation), one line each. */
  onAllocation?: (line: string) => void;
  private timer: NodeJS.Timeout | null = null;
  /** The allocator's clock (tests step it). */
  now: () => number = Date.now;

  static fromScenario(indices: ScenarioIndex[]): IndexStore {
    const store = new IndexStore();
    for (const si of indices) {
      const rec = store.create(si.name, si.settings ?? {}, (si.mappings as Mappings | undefined) ?? {});
      if (si.aliases?.length) rec.aliases = [...si.aliases];
      for (const [id, source] of Object.entries(si.docs ?? {})) store.putDoc(si.name, id, source);
    }
    return store;
  }

  names(): string[] {
    return [...this.indices.keys()].sort();
  }

  get(name: string): IndexRecord | undefined {
    return this.indices.get(name);
  }

  /** Alias → the indices it points to. */
  aliases(): Record<string, string[]> {
    return aliasTable(this.indices.values());
  }

  /** The index, or the one index an alias points to, or a 404 index_not_found_exception. */
  require(name: string, write = false): IndexRecord {
    const rec = this.indices.get(concreteName(name, this.aliases(), write));
    if (!rec) throw indexNotFound(name);
    return rec;
  }

  create(name: string, settings: Record<string, unknown> = {}, mappings: Mappings = {}): IndexRecord {
    const why = invalidName(name);
    if (why)
      throw new ApiFailure(400, 'invalid_index_name_exception', `Invalid index name [${name}], ${why}`, {
        index: name,
        index_uuid: '_na_',
      });
    if (this.aliases()[name])
      throw new ApiFailure(
        400,
        'invalid_index_name_exception',
        `Invalid index name [${name}], already exists as alias`,
        {
          index: name,
          index_uuid: '_na_',
        },
      );
    if (this.indices.has(name)) {
      throw new ApiFailure(
        400,
        'resource_already_exists_exception',
        `index [${name}/${this.indices.get(name)!.settings['index.uuid']}] already exists`,
        { index: name },
      );
    }
    const given = normalizeIndexSettings(settings);
    const flat: Flat = {
      'index.number_of_shards': '1',
      'index.number_of_replicas': '1',
      'index.auto_expand_replicas': 'false',
      'index.replication.type': 'DOCUMENT',
      ...(name === LIMITS_INDEX ? LIMITS_DEFAULTS : {}),
      'index.provided_name': name,
      'index.creation_date': String(Date.now()),
      'index.uuid': newUuid(),
      'index.version.created': VERSION_CREATED,
    };
    for (const [k, v] of Object.entries(given)) if (v !== null) flat[k] = v;
    parseAutoExpand(flat['index.auto_expand_replicas']);
    if (!/^[1-9]\d*$/.test(flat['index.number_of_shards']))
      throw badRequest(
        `Failed to parse value [${flat['index.number_of_shards']}] for setting [index.number_of_shards] must be >= 1`,
      );
    const rec: IndexRecord = {
      name,
      settings: flat,
      mappings: structuredClone(mappings),
      docs: new DocMap(),
      nextSeqNo: 0,
      nextOrder: 0,
      copies: [],
    };
    this.indices.set(name, rec);
    this.place(rec, this.dataNodes !== null);
    // a new replica's recovery ends on the allocator's timer
    this.allocate();
    this.changed();
    return rec;
  }

  deleteIndex(name: string): void {
    this.require(name);
    this.indices.delete(name);
    this.changed();
  }

  /** Applies a PUT _settings body (any accepted form) to one index. */
  putSettings(name: string, body: unknown): void {
    const rec = this.require(name);
    const given = normalizeIndexSettings(body);
    if (Object.keys(given).length === 0)
      throw new ApiFailure(400, 'action_request_validation_exception', 'Validation Failed: 1: no settings to update;');
    checkIndexSettingKeys(Object.keys(given));
    const bad = Object.keys(given).filter((k) => STATIC.includes(k));
    if (bad.length) {
      throw badRequest(
        `Can't update non dynamic settings [[${bad.join(', ')}]] for open indices [[${name}/${rec.settings['index.uuid']}]]`,
      );
    }
    if ('index.auto_expand_replicas' in given) parseAutoExpand(given['index.auto_expand_replicas'] ?? 'false');
    const r = given['index.number_of_replicas'];
    if (r !== undefined && r !== null && !/^\d+$/.test(r))
      throw badRequest(`Failed to parse value [${r}] for setting [index.number_of_replicas] must be >= 0`);
    for (const [k, v] of Object.entries(given)) {
      if (v === null) {
        if (k === 'index.auto_expand_replicas') rec.settings[k] = 'false';
        else if (k === 'index.number_of_replicas') rec.settings[k] = '1';
        else delete rec.settings[k];
      } else rec.settings[k] = v;
    }
    this.resize(rec);
    this.allocate();
    this.changed();
  }

  /**
   * The up data nodes changed: the first time every copy is placed afresh; after that copies on a
   * node that left become unassigned, and what may be allocated is, over time (see alloc.ts).
   */
  reallocate(dataNodes: string[]): void {
    const prev = this.dataNodes;
    this.dataNodes = [...dataNodes].sort();
    if (prev === null) for (const rec of this.indices.values()) this.place(rec);
    else {
      const now = this.now();
      for (const gone of prev.filter((n) => !this.dataNodes!.includes(n))) {
        for (const rec of this.indices.values()) nodeLeft(rec, gone, now, (l) => this.logAllocation(l));
      }
      for (const rec of this.indices.values()) this.resize(rec);
    }
    this.allocate();
    this.changed();
  }

  /** `transient` wins over `persistent`; unset is `all`. */
  allocationEnable(): Enable {
    const v =
      this.clusterSettings.transient[ALLOCATION_ENABLE] ?? this.clusterSettings.persistent[ALLOCATION_ENABLE] ?? 'all';
    return v as Enable;
  }

  /** One allocation pass over every index; schedules the next one when a delay or a recovery is pending. */
  allocate(): void {
    if (this.dataNodes === null) return;
    const now = this.now();
    const load = new Map<string, number>();
    for (const rec of this.indices.values())
      for (const c of rec.copies) if (c.node) load.set(c.node, (load.get(c.node) ?? 0) + 1);
    let due: number | null = null;
    for (const rec of this.indices.values()) {
      const d = allocateIndex(rec, this.dataNodes, this.allocationEnable(), now, this.timing, load, (l) =>
        this.logAllocation(l),
      );
      if (d !== null) due = due === null ? d : Math.min(due, d);
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (due !== null) {
      this.timer = setTimeout(
        () => {
          this.timer = null;
          this.allocate();
          this.changed();
        },
        Math.max(1, due - now + 1),
      );
      this.timer.unref();
    }
  }

  /** Stops the pending allocation timer (the lab is stopping). */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private logAllocation(line: string): void {
    this.onAllocation?.(line);
  }

  /** Auto-expand, then copies added or dropped to match the replica count; new ones wait for allocate(). */
  private resize(rec: IndexRecord): void {
    const ae = parseAutoExpand(rec.settings['index.auto_expand_replicas']);
    if (ae) rec.settings['index.number_of_replicas'] = String(expandedReplicas(ae, (this.dataNodes ?? []).length));
    resizeCopies(rec, Number(rec.settings['index.number_of_replicas']));
  }

  /**
   * A new index (or the first placement): copies of one shard on distinct nodes, rotated per shard, started at once;
   * the replicas of an index created while the cluster runs recover from their primary first (`newCopyDelayMs`).
   */
  private place(rec: IndexRecord, fresh = false): void {
    const only = rec.settings['index.routing.allocation.require._name'];
    const nodes = (this.dataNodes ?? []).filter((n) => only === undefined || n === only);
    const ae = parseAutoExpand(rec.settings['index.auto_expand_replicas']);
    if (ae) rec.settings['index.number_of_replicas'] = String(expandedReplicas(ae, nodes.length));
    const shards = Number(rec.settings['index.number_of_shards']);
    const replicas = Number(rec.settings['index.number_of_replicas']);
    rec.copies = [];
    for (let s = 0; s < shards; s++) {
      for (let c = 0; c <= replicas; c++) {
        // Copies of one shard on distinct nodes, rotated per shard; the rest stay unassigned.
        const node = c < nodes.length ? nodes[(s + c) % nodes.length]! : null;
        const recovering = node !== null && fresh && c > 0 && this.timing.newCopyDelayMs > 0;
        rec.copies.push({
          shard: s,
          primary: c === 0,
          node,
          state: node ? (recovering ? 'INITIALIZING' : 'STARTED') : 'UNASSIGNED',
          ...(recovering ? { readyAt: this.now() + this.timing.newCopyDelayMs } : {}),
        });
      }
    }
  }

  putDoc(
    index: string,
    id: string,
    source: Record<string, unknown>,
    opts: PutDocOptions = {},
  ): { rec: IndexRecord; doc: DocRecord; created: boolean } {
    const rec = this.indices.get(concreteName(index, this.aliases(), true)) ?? this.create(index);
    const old = rec.docs.get(id);
    if (opts.create && old)
      throw versionConflict(rec, id, `document already exists (current version [${old.version}])`);
    checkCas(rec, id, old, opts);
    const doc: DocRecord = {
      source: structuredClone(source),
      version: (old?.version ?? 0) + 1,
      seqNo: rec.nextSeqNo++,
      primaryTerm: 1,
      order: old?.order ?? rec.nextOrder++,
    };
    rec.docs.set(id, doc);
    mergeDynamic(rec.mappings, source);
    this.changed();
    return { rec, doc, created: !old };
  }

  deleteDoc(
    index: string,
    id: string,
    opts: CasOptions = {},
  ): { rec: IndexRecord; seqNo: number; version: number; found: boolean } {
    const rec = this.require(index, true);
    const old = rec.docs.get(id);
    checkCas(rec, id, old, opts);
    const seqNo = rec.nextSeqNo++;
    if (old) rec.docs.delete(id);
    this.changed();
    return { rec, seqNo, version: (old?.version ?? 0) + 1, found: !!old };
  }

  toJSON(): unknown {
    return {
      dataNodes: this.dataNodes,
      clusterSettings: this.clusterSettings,
      indices: [...this.indices.values()].map((r) => ({ ...r, docs: r.docs.toJSON() })),
    };
  }

  static fromJSON(x: unknown): IndexStore {
    const store = new IndexStore();
    const data = x as {
      dataNodes: string[] | null;
      indices: Array<Omit<IndexRecord, 'docs'> & { docs: Parameters<typeof DocMap.fromJSON>[0] }>;
    };
    store.dataNodes = data.dataNodes ?? null;
    const cs = (x as { clusterSettings?: ClusterSettings }).clusterSettings;
    if (cs) store.clusterSettings = { persistent: { ...cs.persistent }, transient: { ...cs.transient } };
    for (const r of data.indices ?? []) store.indices.set(r.name, { ...r, docs: DocMap.fromJSON(r.docs) });
    return store;
  }

  private changed(): void {
    this.onChange?.();
  }
}
