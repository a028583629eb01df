/** Lines that fit a terminal's width, measured as the terminal draws them (wide and zero-width characters). */
import stringWidth from 'string-width';

/** A width below this is taken as this: a line keeps room for some text after its indent. */
const MIN_TEXT = 24;

const graphemes = (s: string): string[] => [...new Intl.Segmenter().segment(s)].map((g) => g.segment);

/** The line cut to `width` columns, ending in … when cut; as it is without a width. */
export function clipTo(line: string, width: number | undefined): string {
  if (width === undefined || stringWidth(line) <= width) return line;
  let out = '';
  for (const g of graphemes(line)) {
    if (stringWidth(out + g) > width - 1) break;
    out += g;
  }
  return `${out}…`;
}

/** Text on lines of at most `width` columns: `first` before the first, `rest` before the others; broken at spaces,
 * a word longer than a line cut where it must. One line, untouched, without a width. */
export function wrapTo(text: string, width: number | undefined, first: string, rest: string): string[] {
  if (width === undefined) return [first + text];
  const w = Math.max(width, stringWidth(rest) + MIN_TEXT, stringWidth(first) + MIN_TEXT);
  const out: string[] = [];
  let line = first;
  let empty = true;
  const push = (): void => {
    out.push(line.trimEnd());
    line = rest;
    empty = true;
  };
  for (const word of text.split(' ')) {
    if (!empty && stringWidth(`${line} ${word}`) <= w) {
      line += ` ${word}`;
      continue;
    }
    if (!empty) push();
    // a word too long for a line of its own is cut, grapheme by grapheme
    for (const g of graphemes(word)) {
      if (!empty && stringWidth(line + g) > w) push();
      line += g;
      empty = false;
    }
    empty = false;
  }
  out.push(line.trimEnd());
  return out;
}
