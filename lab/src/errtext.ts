/** What an error says, for a log line or a 500 body; a thrown non-Error is said as it is. */
export const errText = (err: unknown): string => (err instanceof Error ? err.message : String(err));
