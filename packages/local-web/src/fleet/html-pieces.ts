// HTML assembled from pieces: text written per page, and bytes encoded once (the pools'
// paragraphs, stylesheets and scripts). Encoding a 40 KB page of UTF-8 text costs more than
// rendering it; pieces that are already bytes are copied, never encoded again.
//
//   const page = html`<p>${pooledBytes}</p><a href="${href}">${text}</a>`;  // text is not escaped
//   toBuffer(page);

/** Text already UTF-8 encoded, reused by every page that picks it. */
export type Encoded = Buffer;

export type Piece = string | Encoded;

/** A fragment of HTML: pieces in order, and about how many bytes they make (text counted in characters). */
export class Html {
  constructor(
    readonly pieces: readonly Piece[],
    readonly size: number,
  ) {}
}

export type HtmlValue = string | number | Encoded | Html;

/** A tagged template: interpolated strings are inserted as they are (escape them first). */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): Html {
  const builder = new Builder();
  strings.forEach((text, i) => {
    builder.add(text);
    if (i < values.length) builder.addValue(values[i]);
  });
  return builder.build();
}

/** Fragments one after the other, with `separator` (text) between them. */
export function joinHtml(parts: readonly HtmlValue[], separator = ''): Html {
  const builder = new Builder();
  parts.forEach((part, i) => {
    if (i > 0) builder.add(separator);
    builder.addValue(part);
  });
  return builder.build();
}

/** The page's bytes, in one allocation: its text encoded in place, its encoded pieces copied. */
export function toBuffer(fragment: Html): Buffer {
  let bytes = 0;
  for (const piece of fragment.pieces) bytes += typeof piece === 'string' ? Buffer.byteLength(piece) : piece.length;
  const buffer = Buffer.allocUnsafe(bytes);
  let offset = 0;
  for (const piece of fragment.pieces) {
    if (typeof piece === 'string') offset += buffer.write(piece, offset);
    else {
      buffer.set(piece, offset);
      offset += piece.length;
    }
  }
  return buffer;
}

export function encode(text: string): Encoded {
  return Buffer.from(text);
}

/** Collects pieces, merging adjacent text so that a page is encoded in few runs. */
class Builder {
  private readonly pieces: Piece[] = [];
  private size = 0;

  add(piece: Piece): void {
    if (piece.length === 0) return;
    const last = this.pieces.length - 1;
    const previous = this.pieces[last];
    if (typeof piece === 'string' && typeof previous === 'string') this.pieces[last] = previous + piece;
    else this.pieces.push(piece);
    this.size += piece.length;
  }

  addValue(value: HtmlValue | undefined): void {
    if (value === undefined) return;
    if (value instanceof Html) for (const piece of value.pieces) this.add(piece);
    else if (typeof value === 'number') this.add(String(value));
    else this.add(value);
  }

  build(): Html {
    return new Html(this.pieces, this.size);
  }
}
