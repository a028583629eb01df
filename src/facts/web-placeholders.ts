/**
 * `${NAME}` in the web application's config, resolved as the web application resolves it when it starts: each
 * `${NAME}` (letters, digits, `_`) of a string value is the environment variable NAME; one that is not set stops
 * the application. No default syntax and no nesting. Where its environment could not be read, the value is unknown.
 */

export type WebResolved =
  { state: 'value'; value: string } | { state: 'unknown'; names: string[] } | { state: 'refused'; message: string };

const PLACEHOLDER = /\$\{(\w+)\}/g;

/** A string value of the web application's config, as the application reads it from its environment. */
export function resolveWebValue(text: string, env: Readonly<Record<string, string>> | null | undefined): WebResolved {
  const names = [...text.matchAll(PLACEHOLDER)].map((m) => m[1]!);
  if (names.length === 0) return { state: 'value', value: text };
  if (!env) return { state: 'unknown', names };
  const missing = names.filter((n) => !Object.hasOwn(env, n));
  if (missing.length)
    return {
      state: 'refused',
      message: `the environment variable ${missing[0]} is not set: the application does not start`,
    };
  // one pass: a value that itself holds ${…} is taken as it is, as the application takes it
  return { state: 'value', value: text.replace(PLACEHOLDER, (_m, n: string) => env[n]!) };
}
