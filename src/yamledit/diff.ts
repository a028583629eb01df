/** The unified diff shown for every file edit: exactly the change, git-style headers, 3 lines of context. */
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';

/** `path` is the remote path; a leading `/` is dropped as git does (`/app/x.yml` → `a/app/x.yml`). */
export function unifiedDiff(path: string, before: string, after: string): string {
  const rel = path.replace(/^\/+/, '');
  return createTwoFilesPatch(`a/${rel}`, `b/${rel}`, before, after, undefined, undefined, { context: 3, headerOptions: FILE_HEADERS_ONLY });
}
