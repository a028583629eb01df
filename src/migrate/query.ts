/** The query of `migrate explain`: argument, `--file F`, or `-` / piped standard input. */

import { UsageError } from '../base/errors.ts';
import { readText } from './files.ts';

export interface QueryInput {
  arg?: string;
  file?: string;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  cwd: string;
}

async function readAll(s: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** A trailing newline of a file or a pipe is not part of the query. */
const chomp = (s: string) => s.replace(/\r?\n$/, '');

export async function readQuery(q: QueryInput): Promise<string> {
  if (q.arg !== undefined && q.file !== undefined)
    throw new UsageError('give the query either as an argument or with --file, not both');
  if (q.file !== undefined) return chomp(await readText(q.file, q.cwd, 'query file'));
  const none = "migrate explain needs a query: an argument, --file FILE, or '-' for standard input";
  if (q.arg === '-' || (q.arg === undefined && !q.stdin.isTTY)) {
    const text = chomp(await readAll(q.stdin));
    if (!text.trim()) throw new UsageError(`${none} (standard input held none)`);
    return text;
  }
  if (q.arg === undefined) throw new UsageError(none);
  return q.arg;
}
