// One writer per output: `<path>.lock`, made with O_EXCL, holding who writes the output (process
// id, host name). Two processes given one output path (two workers of a crawl, started with the
// same `--out` or `--warc`) would interleave their records in it and overwrite each other's
// ledger; the second is refused instead, with an error naming the path and the holder.
//
// A lock outlives a process killed with SIGKILL. A lock of a process of this host that is gone
// is stale and taken over at once, so a resumed crawl never waits (a lock that expires after a
// time, as lock-file libraries do it, would refuse the resume for that long). A lock of another
// host cannot be checked: it holds until removed.

import { link, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { PolitelyError } from '@politely/core';
import { outputError } from './append-file.js';

export const LOCK_SUFFIX = '.lock';

interface LockHolder {
  readonly pid: number;
  readonly host: string;
}

/** Drafts this process made (their names are unique in it). */
let drafts = 0;

/** Lock files this process holds (a second output of this process on one path is refused too). */
const heldHere = new Set<string>();

export class OutputLock {
  private released = false;

  private constructor(readonly path: string) {}

  /**
   * Takes the lock of the output at `output`. Throws ERR_OUTPUT naming the output and the
   * process that writes it, when one does.
   */
  static async take(output: string): Promise<OutputLock> {
    const path = output + LOCK_SUFFIX;
    const me: LockHolder = { pid: process.pid, host: hostname() };
    // Written whole to a file of our own, then linked into place: the lock is never seen half written.
    const draft = `${path}.${process.pid}.${++drafts}`;
    try {
      await writeFile(draft, `${JSON.stringify(me)}\n`, { flag: 'wx' });
    } catch (error) {
      throw outputError(output, error);
    }
    try {
      for (let attempt = 0; attempt < 2; attempt++) {
        if (await linked(draft, path, output)) {
          heldHere.add(path);
          return new OutputLock(path);
        }
        await removeIfStale(path, `${draft}.stale`, output);
      }
      throw inUse(output, path, await readHolder(path));
    } finally {
      await unlink(draft).catch(() => {});
    }
  }

  /** Lets the output go (the crawl closed it). */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    heldHere.delete(this.path);
    await unlink(this.path).catch(() => {});
  }
}

async function linked(draft: string, path: string, output: string): Promise<boolean> {
  try {
    await link(draft, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    // A file system without hard links: the lock is created in place (O_EXCL), its text written after.
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'ENOSYS')
      return writeFile(path, await readFile(draft), { flag: 'wx' }).then(
        () => true,
        (failure: NodeJS.ErrnoException) => {
          if (failure.code === 'EEXIST') return false;
          throw outputError(output, failure);
        },
      );
    throw outputError(output, error);
  }
}

/**
 * Moves the lock aside (atomically: whatever lock is there at that moment) and removes it if it
 * is stale; a live one (taken meanwhile by a process that found the same stale lock) is put back.
 */
async function removeIfStale(path: string, aside: string, output: string): Promise<void> {
  try {
    await rename(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw outputError(output, error);
  }
  const holder = await readHolder(aside);
  if (holder !== undefined && !isStale(holder, path)) {
    await link(aside, path).catch(() => {});
    await unlink(aside).catch(() => {});
    throw inUse(output, path, holder);
  }
  await unlink(aside).catch(() => {});
}

async function readHolder(path: string): Promise<LockHolder | undefined> {
  try {
    const value = JSON.parse(await readFile(path, 'utf8')) as Partial<LockHolder>;
    return typeof value.pid === 'number' && typeof value.host === 'string'
      ? { pid: value.pid, host: value.host }
      : undefined;
  } catch {
    return undefined;
  }
}

/** A lock of a process of this host that is no longer running (or of this process, not held by it). */
function isStale(holder: LockHolder, path: string): boolean {
  if (holder.host !== hostname()) return false;
  if (holder.pid === process.pid) return !heldHere.has(path);
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

function inUse(output: string, path: string, holder: LockHolder | undefined): PolitelyError {
  const who = holder === undefined ? 'another process' : `process ${holder.pid} on ${holder.host}`;
  return new PolitelyError(
    'ERR_OUTPUT',
    `could not write ${output}: ${who} is writing it (lock ${path}): give each worker of a crawl outputs of its own, or remove the lock if no crawl writes there`,
  );
}
