/** Text from hosts, the API and documents made safe for where it goes: terminals, Markdown, HTML, XML, and logs (secrets redacted). */
export { escapeControls, escapeControlsDeep } from './controls.ts';
export { clip, esc, escapeHtml, xmlEscape } from './html.ts';
export { codeSpan, fence, mdText } from './markdown.ts';
export {
  REDACTED,
  isSecretKey,
  isSecretValue,
  markSecretValue,
  redactConfigText,
  redactDeep,
  redactText,
  rememberSecret,
  rememberSecrets,
} from './redact.ts';
export { secretForms } from './secret-match.ts';
