// Types for api-report.mjs, which test/pack imports.

export declare const ROOT: string;
export declare const UNREPORTED_SUBPATHS: readonly string[];
export interface ApiEntry {
  /** The entry point as users import it: `@politely/core`, `@politely/frontier/testing`. */
  readonly name: string;
  /** The package's folder. */
  readonly dir: string;
  /** The entry point's built declarations. */
  readonly dts: string;
  /** For a subpath entry point, the built declarations of the package's main entry point. */
  readonly mainDts: string | undefined;
  /** The committed API report. */
  readonly report: string;
}
export interface ApiExtraction {
  readonly succeeded: boolean;
  readonly changed: boolean;
  readonly messages: string[];
}
export declare function apiEntries(): ApiEntry[];
export declare function extractApi(entry: ApiEntry, options?: { readonly update?: boolean }): ApiExtraction;
export declare function undocumentedNames(entry: ApiEntry): string[];
export declare function foreignNames(entry: ApiEntry): string[];
