// Types for docs-files.mjs, which test/docs imports.

export declare const ROOT: string;
export declare function docsFiles(): string[];
export interface ExampleBlock {
  /** The example file, from the repository root (`examples/NAME.mjs`). */
  readonly example: string;
  /** The marker's line number, from 1. */
  readonly line: number;
  /** The block's text, each line with its newline. */
  readonly code: string;
  readonly codeStart: number;
  readonly codeEnd: number;
}
export declare function exampleBlocks(text: string): ExampleBlock[];
