export { PolitelyError } from './errors.js';
export type { PolitelyErrorCode } from './errors.js';

export { parseRobotsTxt, MIN_ROBOTS_TXT_BYTES } from './robots/parse.js';
export type { ParseRobotsTxtOptions } from './robots/parse.js';
export { productToken } from './robots/user-agent.js';
export { matchPathOf } from './robots/url-path.js';
export type {
  RobotsTxt,
  RobotsGroup,
  RobotsRule,
  RobotsUserAgentLine,
  RobotsExplanation,
  RobotsDecisionBasis,
} from './robots/types.js';
