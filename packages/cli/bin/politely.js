#!/usr/bin/env node
// The `politely` command. Everything lives in ../dist (run `pnpm build` first in a checkout).
import { main } from '../dist/main.js';

// `politely … | head` closes stdout early: stop quietly instead of crashing on EPIPE.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

process.exitCode = await main(process.argv.slice(2));
