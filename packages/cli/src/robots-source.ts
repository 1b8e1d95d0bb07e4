// Where a command gets the robots.txt that applies to a URL. Today: a file given with
// --robots. The robots gate (live fetching, cached per origin) will be another source.

import { parseRobotsTxt, type RobotsTxt } from '@politely/core';
import { readRobotsFile } from './read-robots-file.js';

/** Gives the robots.txt that governs `url`. A fetch-based source will look at its origin. */
export type LoadRobots = (url: URL) => Promise<RobotsTxt>;

/** A source that answers every URL with one file, read and parsed once, up front. */
export async function createFileRobotsSource(path: string): Promise<LoadRobots> {
  const robots = parseRobotsTxt(await readRobotsFile(path));
  return () => Promise.resolve(robots);
}
