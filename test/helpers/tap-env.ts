/** The environment for a tap run started inside a test: without tap's own variables, which would make it report to this one. */
export const withoutTap = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv =>
  Object.fromEntries(Object.entries(env).filter(([k]) => !k.startsWith('TAP')));
