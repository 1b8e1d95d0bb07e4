// Counts the commands this process's ioredis connections write to their sockets: the round trips
// a client makes to a single Redis or to every node of a Redis Cluster, counted on the client's
// side, where a script's inner commands (which INFO commandstats counts too) do not show.
// Counted where a command is serialized for its socket (Command#toWritable, once per write): a
// command held in an offline queue counts once, when sent; connection checks (INFO), slot
// refreshes (CLUSTER SLOTS) and a cluster's redirections count, as they are round trips too.

import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * From now on, calls `onCommand(name, args)` (name in lower case: evalsha, eval, get…) for every
 * command written; `args` as written (a script's sha or, for eval, its text first).
 */
export function countRedisWrites(onCommand) {
  // ioredis as @politely/store-redis resolves it: the copy whose connections the store opens.
  const require = createRequire(fileURLToPath(import.meta.resolve('@politely/store-redis')));
  const { Command } = require('ioredis');
  const toWritable = Command.prototype.toWritable;
  Command.prototype.toWritable = function counted(socket) {
    const written = toWritable.call(this, socket);
    onCommand(String(this.name ?? '?').toLowerCase(), this.args);
    return written;
  };
}
