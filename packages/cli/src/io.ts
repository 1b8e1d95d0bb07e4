// The streams a command talks to. The bin passes the process's; tests pass their own.

/** The standard streams of one run of `main`. */
export interface Io {
  readonly stdin: NodeJS.ReadableStream;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
}

/** The process's own streams. */
export function processIo(): Io {
  return { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };
}

/**
 * Writes `text`, waiting for the stream to drain when its buffer is full, so that a long batch
 * never holds its whole output in memory. Resolves early if the stream closes or fails.
 */
export function write(stream: NodeJS.WritableStream, text: string): Promise<void> | undefined {
  // A stream that is gone fires no 'drain' or 'close' any more: waiting for one would hang.
  if (isGone(stream) || stream.write(text) || isGone(stream)) return undefined;
  return new Promise((resolve) => {
    const done = (): void => {
      stream.off('drain', done);
      stream.off('close', done);
      stream.off('error', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
    stream.on('error', done);
  });
}

function isGone(stream: NodeJS.WritableStream): boolean {
  const state = stream as { destroyed?: boolean; writableEnded?: boolean; errored?: unknown };
  return (
    state.destroyed === true || state.writableEnded === true || (state.errored !== undefined && state.errored !== null)
  );
}
