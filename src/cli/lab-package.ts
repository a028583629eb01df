/**
 * The lab is a package of its own (@smdoctor/lab, the repository's lab/ workspace), not part of the product: the CLI
 * loads it only when a command needs it, by name, so smdoctor builds and installs without it.
 */
import { UsageError } from '../base/errors.ts';

const LAB_PACKAGE = '@smdoctor/lab';

/** One node or web host of `lab status`: what the status text shows of it. */
interface LabHostStatus {
  name: string;
  ip: string;
  ssh_port: number;
  state: string;
  reason?: string;
}

/** What the lab's daemon says of a running lab (`lab status`, `lab up`). */
export interface LabStatus {
  dir: string;
  scenario: string;
  clusters: Array<{
    name: string;
    api_url: string;
    elected_manager: string | null;
    nodes: Array<LabHostStatus & { roles: string[] }>;
    web_hosts: Array<LabHostStatus & { hosts: string[] }>;
  }>;
}

/** The part of the lab package's API the `lab` command uses. */
export interface LabModule {
  labUp(opts: {
    dir: string;
    scenario: string;
    env: NodeJS.ProcessEnv;
    bastion: boolean;
  }): Promise<{ layout: unknown; inventoryPath: string; status: LabStatus }>;
  labDown(dir: string): Promise<{ stopped: string[]; netRemoved: boolean }>;
  labStatus(dir: string): Promise<LabStatus | null>;
  writeLabRepo(layout: unknown): Promise<{ inventoryDir: string; vaultPasswordFile: string }>;
}

/** The lab package's cheap entry: whether a lab directory's lab is up, for every command's default inventory. */
export interface LabDefaultModule {
  upLabInventory(dir: string): string | null;
}

export const LAB_MISSING =
  `the lab is a package of its own, ${LAB_PACKAGE}, not installed here: it is the lab/ workspace of ` +
  `smdoctor's repository; run smdoctor from a clone of it after npm ci (the lab is not published on its own)`;

/** The lab package (or its `default` entry), or null where it is not installed. */
export async function importLab(): Promise<LabModule | null>;
export async function importLab(entry: 'default'): Promise<LabDefaultModule | null>;
export async function importLab(entry?: 'default'): Promise<LabModule | LabDefaultModule | null> {
  // a specifier the compiler does not follow: smdoctor is built before the lab, which is built against it
  const specifier: string = entry ? `${LAB_PACKAGE}/${entry}` : LAB_PACKAGE;
  try {
    return (await import(specifier)) as LabModule | LabDefaultModule;
  } catch (e) {
    // the lab itself is missing, not one of its own imports
    const err = e as { code?: string; message?: string };
    if (err?.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes(`'${LAB_PACKAGE}'`)) return null;
    throw e;
  }
}

/** The lab package, or the usage error (exit 2) that says how to install it. */
export async function requireLab(): Promise<LabModule> {
  const lab = await importLab();
  if (!lab) throw new UsageError(LAB_MISSING);
  return lab;
}
