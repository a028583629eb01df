/** The unified diff shown for every file edit: exactly the change, git-style headers, 3 lines of context. */
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import { redactConfigText } from '../text/index.ts';

/**
 * `path` is the remote path; a leading `/` is dropped as git does (`/app/x.yml` → `a/app/x.yml`).
 * Both texts are redacted whole first, line for line: a hunk that starts inside a secret's block value shows no secret.
 */
export function unifiedDiff(path: string, before: string, after: string): string {
  const rel = path.replace(/^\/+/, '');
  return createTwoFilesPatch(
    `a/${rel}`,
    `b/${rel}`,
    redactConfigText(before),
    redactConfigText(after),
    undefined,
    undefined,
    { context: 3, headerOptions: FILE_HEADERS_ONLY },
  );
}
