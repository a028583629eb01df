/**
 * How smdoctor reaches a host and its cluster's REST API: the fields the inventory resolves, the SSH transport and the
 * REST client take, declared once (inventory/, transport/ and cluster/ know nothing of each other).
 */

/** Known-hosts checking, as OpenSSH's StrictHostKeyChecking: yes, accept-new, no. */
export type HostKeyPolicy = 'strict' | 'accept-new' | 'off';

/** How commands reach the host: an SSH session, or run on this machine. */
export type Connection = 'ssh' | 'local';

/** The SSH side of a host: where, as whom, with which key and host-key checks. */
export interface SshFields {
  connection: Connection;
  address: string;
  port: number;
  user: string;
  privateKeyFile?: string;
  /** Privileged commands run with `sudo -n`. */
  become: boolean;
  /** Where host keys are looked up and accept-new records a new one (OpenSSH's first UserKnownHostsFile). */
  knownHostsFile: string;
  /** Further UserKnownHostsFile entries: read as well, never written (OpenSSH reads them all). */
  knownHostsAlso?: string[];
  hostKeyChecking: HostKeyPolicy;
}

/** The REST API side of a host: its URL, credentials and TLS settings. */
export interface ApiFields {
  /** Without userinfo: credentials written into the URL are in apiUrlUsername/apiUrlPassword. */
  apiUrl: string;
  apiUsername?: string;
  apiUrlUsername?: string;
  /** A secret: remembered for redaction when read. */
  apiUrlPassword?: string;
  /** The environment variable that holds the password. */
  apiPasswordEnv: string;
  apiPasswordFile?: string;
  /** The password itself (usually from a vault); ranks after apiPasswordFile and apiPasswordEnv. */
  apiPassword?: string;
  apiCaFile?: string;
  apiInsecure: boolean;
}
