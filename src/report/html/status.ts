/** Check statuses as the HTML report shows them: a class for colour and a word, never colour alone. */
import { CHECK_STATUSES, isCheckStatus, type Action, type CheckStatus } from '../../model/index.ts';
import { esc } from '../../text/index.ts';

/** Where each status stands when the page lists them: what a reader must look at first. */
const PLACE: Record<CheckStatus, number> = { fail: 0, error: 1, waived: 2, pass: 3, skip: 4 };
export const WORST_FIRST: readonly CheckStatus[] = [...CHECK_STATUSES].sort((a, b) => PLACE[a] - PLACE[b]);

export const STATUS_WORD: Record<CheckStatus, string> = {
  pass: 'PASS',
  fail: 'FAIL',
  error: 'ERROR',
  skip: 'SKIP',
  waived: 'WAIVED',
};

/** A sign per status beside its colour: a reader who cannot tell the colours apart, or a page printed in grey. */
export const STATUS_SIGN: Record<CheckStatus, string> = {
  pass: '✓',
  fail: '✗',
  error: '!',
  skip: '–',
  waived: 'W',
};

export const ACTION_FILL: Record<Action['status'], string> = {
  planned: '#1565c0',
  done: '#2e7d32',
  failed: '#c62828',
  skipped: '#757575',
};

/** A status badge; a value that is no status (a report from elsewhere) shows escaped, without a class of its own. */
export const badge = (s: CheckStatus): string =>
  isCheckStatus(s) ? `<span class="st st-${s}">${STATUS_WORD[s]}</span>` : `<span class="st">${esc(String(s))}</span>`;
