/** Exit codes of the engine's command-line tools that smdoctor reads as answers, not failures. */

/** `<engine>-keystore`: no keystore at all, so no entry either (the tool's documented exit code). */
export const NO_KEYSTORE = 65;
