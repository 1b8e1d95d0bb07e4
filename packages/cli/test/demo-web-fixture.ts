// The demo web and a temporary directory for the tests of one file: started before its first
// test, closed and removed after its last.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LocalWeb, startDemoWeb } from '@politely/demo-web';
import { afterAll, beforeAll } from 'vitest';

export interface DemoWebFixture {
  readonly web: LocalWeb;
  /** A fresh directory under the system's temp dir, named `<prefix>XXXXXX`. */
  readonly dir: string;
}

/** Registers the hooks; `use` receives the fixture once it is up (assign it to the file's variables there). */
export function useDemoWebAndDir(prefix: string, use: (fixture: DemoWebFixture) => void): void {
  let fixture: DemoWebFixture | undefined;
  beforeAll(async () => {
    fixture = { web: await startDemoWeb(), dir: mkdtempSync(join(tmpdir(), prefix)) };
    use(fixture);
  });
  afterAll(async () => {
    if (fixture === undefined) return;
    await fixture.web.close();
    rmSync(fixture.dir, { recursive: true, force: true });
  });
}
