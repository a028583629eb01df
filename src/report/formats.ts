/** The report formats: `text` for people, `json` for programs, `junit` for CI, `markdown` for tickets, `html` to hand
 * to people, `prometheus` for node_exporter's textfile collector. Apart from the renderers, so --help loads none. */
export const FORMATS = ['text', 'json', 'junit', 'markdown', 'html', 'prometheus'] as const;
export type Format = (typeof FORMATS)[number];
