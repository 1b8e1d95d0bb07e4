import {
  ALL_USAGE_PURPOSES,
  checkContactAddress,
  checkRequestHeaders,
  createRequestSigner,
  type HostResolver,
  isUsagePurpose,
  productToken,
  type UsagePurpose,
} from '@politely/core';
import { checkNetworks, describeValue, optionChecks, parseProxyUrl } from '@politely/core/internal';
import { CookieJar } from 'tough-cookie';
import type {
  AdaptiveDelayOptions,
  CrawlerOptions,
  ResolvedCrawlerOptions,
  SeedRequest,
  SigningOptions,
} from './crawler-options.js';
import { resolveOutputs } from './dataset/output-options.js';
import {
  type CanonicalUrlOptions,
  type ResolvedCanonicalUrlOptions,
  resolveCanonicalUrlOptions,
} from './frontier/canonical-url.js';
import type { LabelCheck } from './frontier/frontier.js';
import { checkRequestData } from './frontier/request-data.js';
import { createScope, DEFAULT_SCOPE, type ScopeOption } from './frontier/scope.js';
import {
  type ResolvedTrapDetection,
  resolveTrapDetection,
  type TrapCalendarOptions,
  type TrapDetectionOptions,
} from './frontier/trap-detector.js';
import type { FailedRequestHandler } from './handle/failed-request.js';
import { labelCheckOf } from './handle/routes.js';
import { checkCombinations, checkServices } from './option-combinations.js';
import type { PageHandler, RouteHandlers } from './page-context.js';
import type { RenderWaitUntil } from './page-renderer.js';
import type { CrawlerPlugin } from './plugin.js';
import { POLITENESS_KEY_MODES, type PolitenessKeyMode } from './politeness/index.js';
import { CRAWLER_SKIP_REASONS } from './skip-reasons.js';

export type {
  AdaptiveDelayOptions,
  CrawlerOptions,
  RenderChoice,
  RenderRequest,
  ResolvedCrawlerOptions,
  SeedRequest,
  SigningOptions,
} from './crawler-options.js';

const RENDER_WAIT_UNTIL: readonly RenderWaitUntil[] = ['load', 'domcontentloaded', 'networkidle'];

const check = optionChecks('createCrawler');

/** Every option `createCrawler` knows: a key missing here, or one too many, is a type error. */
export const CRAWLER_OPTION_KEYS: Record<keyof CrawlerOptions, true> = {
  userAgent: true,
  seeds: true,
  handler: true,
  onFailed: true,
  retryFailed: true,
  fresh: true,
  handlers: true,
  store: true,
  gate: true,
  robotsCache: true,
  httpClient: true,
  meterProvider: true,
  logger: true,
  blockPrivateNetworks: true,
  allowNet: true,
  headers: true,
  from: true,
  cookies: true,
  proxy: true,
  signing: true,
  signal: true,
  stopGraceMs: true,
  concurrency: true,
  adaptiveConcurrency: true,
  perHostConcurrency: true,
  minDelayMs: true,
  maxCrawlDelayMs: true,
  adaptiveDelay: true,
  maxPages: true,
  maxPagesPerHost: true,
  maxDepth: true,
  trapDetection: true,
  maxLinksPerPage: true,
  scope: true,
  canonicalUrl: true,
  followLinks: true,
  honorNofollow: true,
  maxRedirects: true,
  maxBodyBytes: true,
  requestTimeoutMs: true,
  connectTimeoutMs: true,
  maxHeaderBytes: true,
  maxRetries: true,
  backoffBaseMs: true,
  backoffMaxMs: true,
  maxRobotsRetries: true,
  leaseMs: true,
  plugins: true,
  outputs: true,
  purposes: true,
  robotsTokens: true,
  tdmrepCacheMs: true,
  recrawl: true,
  revisitMinMs: true,
  revisitMaxMs: true,
  followUnchangedLinks: true,
  politenessKey: true,
  resolver: true,
  render: true,
  renderer: true,
  renderWaitUntil: true,
  renderTimeoutMs: true,
  renderBlockResourceTypes: true,
};

export const SIGNING_KEYS: Record<keyof SigningOptions, true> = {
  key: true,
  signatureAgent: true,
  draft: true,
  sign: true,
};
export const ADAPTIVE_DELAY_KEYS: Record<keyof AdaptiveDelayOptions, true> = {
  targetConcurrency: true,
  maxDelayMs: true,
};
export const TRAP_DETECTION_KEYS: Record<keyof TrapDetectionOptions, true> = {
  maxPathSegments: true,
  maxConsecutiveRepeats: true,
  maxSegmentOccurrences: true,
  maxQueryParams: true,
  maxQueryParamRepeats: true,
  maxQueryLength: true,
  calendar: true,
  now: true,
};

export const TRAP_CALENDAR_KEYS: Record<keyof TrapCalendarOptions, true> = { yearsAhead: true, yearsBehind: true };

/** The keys of a seed given as an object. */
export const SEED_KEYS: Record<keyof SeedRequest, true> = {
  url: true,
  priority: true,
  label: true,
  userData: true,
  headers: true,
};

/** `canonicalUrl`'s keys (what `canonicalizeUrl` takes, resolved or not). */
export const CANONICAL_URL_KEYS: Record<keyof CanonicalUrlOptions | keyof ResolvedCanonicalUrlOptions, true> = {
  isDroppedQueryParam: true,
  dropQueryParams: true,
  sortQueryParams: true,
  removeEmptyQuery: true,
  stripWww: true,
  removeTrailingSlash: true,
  maxLength: true,
};

/** A `logger` needs its four level methods: one missing would fail at the first entry, mid-crawl. */
function checkLogger(logger: unknown): void {
  if (logger === undefined) return;
  const methods = ['debug', 'info', 'warn', 'error'] as const;
  const missing =
    typeof logger === 'object' && logger !== null
      ? methods.filter((name) => typeof (logger as Record<string, unknown>)[name] !== 'function')
      : methods;
  if (missing.length > 0)
    check.fail(
      `logger must have the methods debug, info, warn and error, each (fields, message?), as a pino logger has; missing: ${missing.join(', ')}`,
    );
}

export function resolveCrawlerOptions(options: CrawlerOptions): ResolvedCrawlerOptions {
  if (typeof options === 'object' && options !== null) {
    check.knownKeys(options, CRAWLER_OPTION_KEYS);
    check.knownKeys(options.adaptiveDelay, ADAPTIVE_DELAY_KEYS, 'adaptiveDelay.');
    if (typeof options.trapDetection === 'object' && options.trapDetection !== null) {
      check.knownKeys(options.trapDetection, TRAP_DETECTION_KEYS, 'trapDetection.');
      const { calendar } = options.trapDetection;
      if (typeof calendar === 'object' && calendar !== null)
        check.knownKeys(calendar, TRAP_CALENDAR_KEYS, 'trapDetection.calendar.');
    }
    check.knownKeys(options.canonicalUrl, CANONICAL_URL_KEYS, 'canonicalUrl.');
    check.knownKeys(options.signing, SIGNING_KEYS, 'signing.');
    checkLogger(options.logger);
    checkServices(check, options);
    checkCombinations(check, options);
  }
  if (typeof options?.userAgent !== 'string' || options.userAgent.trim() === '') {
    check.fail(
      'userAgent is required: a product token and, by convention, a contact URL, e.g. "MyBot/1.0 (+https://example.com/bot)"',
    );
  }
  const token = productToken(options.userAgent);
  if (token === '') {
    check.fail(
      `userAgent must start with a product token of letters, '_' or '-' (robots.txt is matched against it), got ${JSON.stringify(options.userAgent)}`,
    );
  }
  const routes = checkHandlers(options.handler, options.handlers);
  const checkLabel = labelCheckOf(routes.handlers);
  if (options.seeds !== undefined && !Array.isArray(options.seeds))
    check.fail(`seeds must be an array of URLs or { url, … } objects, got ${describeValue(options.seeds)}`);
  const seeds = (options.seeds ?? []).map((seed, index) => resolveSeed(seed, index, checkLabel));
  return {
    userAgent: options.userAgent,
    productToken: token,
    seeds,
    ...routes,
    onFailed: checkOnFailed(options.onFailed),
    concurrency: check.count('concurrency', options.concurrency, 16, 1),
    adaptiveConcurrency: check.flag('adaptiveConcurrency', options.adaptiveConcurrency, true),
    perHostConcurrency: check.count('perHostConcurrency', options.perHostConcurrency, 1, 1),
    minDelayMs: check.durationMs('minDelayMs', options.minDelayMs, 250),
    maxCrawlDelayMs: check.durationMs('maxCrawlDelayMs', options.maxCrawlDelayMs, 30_000),
    adaptiveDelay: resolveAdaptiveDelay(options.adaptiveDelay),
    maxPages: check.count('maxPages', options.maxPages, Infinity, 0, { unbounded: true }),
    maxPagesPerHost: check.count('maxPagesPerHost', options.maxPagesPerHost, 100_000, 1, { unbounded: true }),
    maxDepth: check.count('maxDepth', options.maxDepth, 100, 0, { unbounded: true }),
    trapDetection: resolveTrap(options.trapDetection),
    maxLinksPerPage: check.count('maxLinksPerPage', options.maxLinksPerPage, 10_000, 0, { unbounded: true }),
    scope: resolveScope(options.scope),
    canonicalUrl: resolveCanonicalUrl(options.canonicalUrl),
    followLinks: check.flag('followLinks', options.followLinks, true),
    honorNofollow: check.flag('honorNofollow', options.honorNofollow, true),
    maxRedirects: check.count('maxRedirects', options.maxRedirects, 5, 0),
    maxBodyBytes: check.count('maxBodyBytes', options.maxBodyBytes, 10 * 1024 * 1024, 1, { unbounded: true }),
    requestTimeoutMs: check.timeoutMs('requestTimeoutMs', options.requestTimeoutMs, 30_000),
    connectTimeoutMs: check.timeoutMs('connectTimeoutMs', options.connectTimeoutMs, 10_000),
    maxHeaderBytes: check.count('maxHeaderBytes', options.maxHeaderBytes, 65_536, 1024),
    maxRetries: check.count('maxRetries', options.maxRetries, 2, 0),
    backoffBaseMs: check.durationMs('backoffBaseMs', options.backoffBaseMs, 1000),
    backoffMaxMs: check.durationMs('backoffMaxMs', options.backoffMaxMs, 300_000),
    maxRobotsRetries: check.count('maxRobotsRetries', options.maxRobotsRetries, 3, 0),
    leaseMs: check.timeoutMs('leaseMs', options.leaseMs, 300_000),
    stopGraceMs: check.durationMs('stopGraceMs', options.stopGraceMs, 10_000),
    plugins: resolvePlugins(options.plugins),
    outputs: resolveOutputs(options.outputs, check),
    blockPrivateNetworks: check.flag('blockPrivateNetworks', options.blockPrivateNetworks, true),
    allowNet: checkNetworks(check, 'allowNet', options.allowNet),
    headers: options.headers === undefined ? {} : checkRequestHeaders(options.headers, 'createCrawler: headers'),
    from: options.from === undefined ? undefined : checkContactAddress(options.from, 'createCrawler: from'),
    cookies: resolveCookies(options.cookies),
    proxy: resolveProxy(options.proxy),
    signing: resolveSigning(options.signing),
    purposes: resolvePurposes(options.purposes),
    robotsTokens: resolveRobotsTokens(token, options.robotsTokens),
    tdmrepCacheMs: check.durationMs('tdmrepCacheMs', options.tdmrepCacheMs, 86_400_000),
    ...resolveRevisits(options),
    politenessKey: resolvePolitenessKey(options),
    resolver: resolveResolver(options),
    ...resolveRender(options),
  };
}

function resolveAdaptiveDelay(adaptive: AdaptiveDelayOptions | undefined): Required<AdaptiveDelayOptions> | undefined {
  if (adaptive === undefined) return undefined;
  if (typeof adaptive !== 'object' || adaptive === null || Array.isArray(adaptive))
    check.fail(`adaptiveDelay must be an object { targetConcurrency?, maxDelayMs? }, got ${describeValue(adaptive)}`);
  return {
    targetConcurrency: check.positive('adaptiveDelay.targetConcurrency', adaptive.targetConcurrency, 1),
    maxDelayMs: check.durationMs('adaptiveDelay.maxDelayMs', adaptive.maxDelayMs, 60_000),
  };
}

/** The scope, checked now (a scope that cannot be built would otherwise fail when the crawl runs). */
function resolveScope(scope: ScopeOption | undefined): ScopeOption {
  if (scope === undefined) return DEFAULT_SCOPE;
  try {
    createScope(scope, []);
  } catch (error) {
    if (error instanceof Error) check.fail(`scope: ${error.message.replace(/^createScope: /, '')}`);
    throw error;
  }
  return scope;
}

/** The canonicalUrl options, checked now (the frontier resolves them again when the crawl runs). */
function resolveCanonicalUrl(canonicalUrl: CanonicalUrlOptions | undefined): CanonicalUrlOptions {
  if (canonicalUrl === undefined) return {};
  if (typeof canonicalUrl !== 'object' || canonicalUrl === null || Array.isArray(canonicalUrl))
    check.fail(`canonicalUrl must be an object, got ${describeValue(canonicalUrl)}`);
  let resolved: ResolvedCanonicalUrlOptions;
  try {
    resolved = resolveCanonicalUrlOptions(canonicalUrl);
  } catch (error) {
    if (error instanceof Error) check.fail(`canonicalUrl.${error.message.replace(/^canonicalizeUrl: /, '')}`);
    throw error;
  }
  // isDroppedQueryParam is what resolving dropQueryParams makes: given by hand, it would be ignored.
  if (
    resolved !== canonicalUrl &&
    (canonicalUrl as { isDroppedQueryParam?: unknown }).isDroppedQueryParam !== undefined
  )
    check.fail('canonicalUrl.isDroppedQueryParam cannot take effect: it is made from dropQueryParams; give those');
  return canonicalUrl;
}

function resolveRender(
  options: CrawlerOptions,
): Pick<ResolvedCrawlerOptions, 'render' | 'renderWaitUntil' | 'renderTimeoutMs' | 'renderBlockResourceTypes'> {
  const { render, renderer } = options;
  if (render !== undefined && typeof render !== 'boolean' && typeof render !== 'function')
    check.fail(`render must be true, false or a function of the request, got ${describeValue(render)}`);
  const renderWaitUntil = check.oneOf('renderWaitUntil', options.renderWaitUntil, 'networkidle', RENDER_WAIT_UNTIL);
  const blocked =
    options.renderBlockResourceTypes === undefined ? ['image', 'media', 'font'] : options.renderBlockResourceTypes;
  if (!Array.isArray(blocked) || blocked.some((type) => typeof type !== 'string'))
    check.fail('renderBlockResourceTypes must be an array of resource types, e.g. ["image", "media", "font"]');
  const settings = {
    renderWaitUntil,
    renderTimeoutMs: check.timeoutMs('renderTimeoutMs', options.renderTimeoutMs, 60_000),
    renderBlockResourceTypes: new Set(blocked),
  };
  if (render === undefined || render === false) return { ...settings, render: undefined };
  if (typeof renderer?.start !== 'function') {
    check.fail(
      "render needs a renderer: renderer: new ChromiumRenderer() (import { ChromiumRenderer } from '@politely/browser')",
    );
  }
  return { ...settings, render: { choose: render === true ? () => true : render, renderer: renderer! } };
}

function resolveProxy(proxy: string | undefined): string | undefined {
  if (proxy === undefined) return undefined;
  if (typeof proxy !== 'string')
    check.fail(`proxy must be a URL string (http://host:port), got ${describeValue(proxy)}`);
  return parseProxyUrl(proxy, 'createCrawler').href;
}

function resolveResolver(options: CrawlerOptions): HostResolver | undefined {
  if (options.resolver === undefined) return undefined;
  if (typeof options.resolver !== 'function')
    check.fail('resolver must be a function from a host name to its addresses');
  if (options.proxy !== undefined)
    check.fail('resolver cannot be used with a proxy: the proxy resolves host names itself');
  return options.resolver;
}

function resolvePolitenessKey(options: CrawlerOptions): PolitenessKeyMode {
  const mode = check.oneOf('politenessKey', options.politenessKey, 'host', POLITENESS_KEY_MODES);
  if (mode === 'ip' && options.proxy !== undefined) {
    check.fail(
      "politenessKey 'ip' cannot be used with a proxy: the proxy resolves host names itself, so the crawler cannot connect to the address it keys by",
    );
  }
  return mode;
}

function resolveRevisits(
  options: CrawlerOptions,
): Pick<
  ResolvedCrawlerOptions,
  'recrawl' | 'retryFailed' | 'fresh' | 'revisitMinMs' | 'revisitMaxMs' | 'followUnchangedLinks'
> {
  const revisitMinMs = check.durationMs('revisitMinMs', options.revisitMinMs, 0);
  const revisitMaxMs = check.durationMs('revisitMaxMs', options.revisitMaxMs, 30 * 86_400_000);
  if (revisitMaxMs < revisitMinMs)
    check.fail(`revisitMaxMs (${revisitMaxMs}) must be at least revisitMinMs (${revisitMinMs})`);
  return {
    recrawl: check.flag('recrawl', options.recrawl, false),
    retryFailed: check.flag('retryFailed', options.retryFailed, false),
    fresh: check.flag('fresh', options.fresh, false),
    revisitMinMs,
    revisitMaxMs,
    followUnchangedLinks: check.flag('followUnchangedLinks', options.followUnchangedLinks, false),
  };
}

function resolvePurposes(purposes: readonly UsagePurpose[] | undefined): readonly UsagePurpose[] {
  if (purposes === undefined) return [];
  if (!Array.isArray(purposes))
    check.fail(
      `purposes must be an array of purposes (${ALL_USAGE_PURPOSES.join(', ')}), got ${describeValue(purposes)}`,
    );
  for (const purpose of purposes as readonly unknown[]) {
    if (typeof purpose !== 'string' || !isUsagePurpose(purpose)) {
      check.fail(
        `purposes: unknown purpose ${describeValue(purpose)}; the purposes are ${ALL_USAGE_PURPOSES.join(', ')}`,
      );
    }
  }
  return [...new Set(purposes)];
}

function resolveRobotsTokens(own: string, tokens: readonly string[] | undefined): readonly string[] {
  if (tokens === undefined) return [own];
  if (!Array.isArray(tokens))
    check.fail(`robotsTokens must be an array of product tokens, got ${describeValue(tokens)}`);
  for (const token of tokens as readonly unknown[]) {
    if (typeof token !== 'string' || token === '' || productToken(token) !== token) {
      check.fail(
        `robotsTokens: ${describeValue(token)} is not a product token (letters, '_' and '-' only, e.g. 'MyBot-Training')`,
      );
    }
  }
  const out = [own];
  for (const token of tokens) if (!out.some((t) => t.toLowerCase() === token.toLowerCase())) out.push(token);
  return out;
}

function resolveCookies(cookies: boolean | CookieJar | undefined): CookieJar | undefined {
  if (cookies === undefined || cookies === false) return undefined;
  if (cookies === true) return new CookieJar();
  // Duck-typed: a jar from another copy of tough-cookie is a jar too.
  const jar = cookies as Partial<CookieJar> | null;
  if (
    typeof jar?.setCookie === 'function' &&
    typeof jar.getCookieString === 'function' &&
    typeof jar.serialize === 'function'
  )
    return cookies;
  return check.fail(`cookies must be true, false or a tough-cookie CookieJar, got ${describeValue(cookies)}`);
}

function resolveTrap(trapDetection: TrapDetectionOptions | false | undefined): ResolvedTrapDetection | null {
  try {
    return resolveTrapDetection(trapDetection === undefined ? {} : trapDetection);
  } catch (error) {
    return check.fail((error as Error).message);
  }
}

/** A skip reason's form: kebab-case, as the crawler's own are. */
const SKIP_REASON_FORM = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

function resolvePlugins(plugins: readonly CrawlerPlugin[] | undefined): readonly CrawlerPlugin[] {
  if (plugins === undefined) return [];
  if (!Array.isArray(plugins)) check.fail(`plugins must be an array of plugins, got ${describeValue(plugins)}`);
  for (const [index, plugin] of plugins.entries()) {
    if (typeof plugin !== 'object' || plugin === null || typeof plugin.name !== 'string' || plugin.name === '')
      check.fail(`plugins[${index}] must be a plugin: an object with a name, got ${describeValue(plugin)}`);
  }
  const kinds = new Map<string, string>();
  const reasons = new Map<string, string>(CRAWLER_SKIP_REASONS.map((reason) => [reason, 'the crawler']));
  for (const plugin of plugins) {
    for (const reason of Object.keys(plugin.skipReasons ?? {})) {
      if (!SKIP_REASON_FORM.test(reason))
        check.fail(
          `plugin '${plugin.name}' declares the skip reason ${JSON.stringify(reason)}: reasons are kebab-case (e.g. 'sitemap-scope')`,
        );
      const owner = reasons.get(reason);
      if (owner !== undefined)
        check.fail(
          `plugin '${plugin.name}' declares the skip reason '${reason}', which is ${owner === 'the crawler' ? "the crawler's own" : `plugin '${owner}'s too`}`,
        );
      reasons.set(reason, plugin.name);
    }
    for (const kind of Object.keys(plugin.processors ?? {})) {
      if (kind === 'page') check.fail(`plugin '${plugin.name}' may not process the 'page' kind`);
      const other = kinds.get(kind);
      if (other !== undefined) check.fail(`plugins '${other}' and '${plugin.name}' both process '${kind}' resources`);
      kinds.set(kind, plugin.name);
    }
  }
  return plugins;
}

/** A seed as a request: its label (a route's), userData and headers checked (ERR_INVALID_OPTION naming the seed). */
function resolveSeed(seed: string | SeedRequest, index: number, checkLabel: LabelCheck): SeedRequest {
  if (typeof seed === 'string') return { url: seed };
  const name = `seeds[${index}]`;
  if (typeof seed !== 'object' || seed === null || typeof seed.url !== 'string')
    check.fail(`${name} must be a URL or { url, priority?, label?, userData?, headers? }, got ${describeValue(seed)}`);
  check.knownKeys(seed, SEED_KEYS, `${name}.`);
  if (seed.priority !== undefined && !Number.isSafeInteger(seed.priority))
    check.fail(`${name} (${seed.url}): priority must be an integer, got ${describeValue(seed.priority)}`);
  const labelProblem = typeof seed.label === 'string' ? checkLabel(seed.label) : undefined;
  if (labelProblem !== undefined) check.fail(`${name} (${seed.url}): ${labelProblem}`);
  return {
    url: seed.url,
    ...(seed.priority === undefined ? {} : { priority: seed.priority }),
    ...seedData(name, seed),
  };
}

/** A seed's label, userData and headers, checked: a refusal names the seed. */
function seedData(name: string, seed: SeedRequest): ReturnType<typeof checkRequestData> {
  try {
    return checkRequestData(seed.url, seed, 'ERR_INVALID_OPTION');
  } catch (error) {
    if (error instanceof Error) check.fail(`${name} (${seed.url}): ${error.message.replace(/^request .*?: /, '')}`);
    throw error;
  }
}

function checkOnFailed(onFailed: FailedRequestHandler | undefined): FailedRequestHandler | undefined {
  if (onFailed !== undefined && typeof onFailed !== 'function')
    check.fail(`onFailed must be a function, got ${typeof onFailed}`);
  return onFailed;
}

/** `handler` or `handlers` (one of the two at most), each a function. */
function checkHandlers(
  handler: PageHandler | undefined,
  handlers: RouteHandlers | undefined,
): Pick<ResolvedCrawlerOptions, 'handler' | 'handlers'> {
  if (handler !== undefined && handlers !== undefined) check.fail('give either handler or handlers, not both');
  if (handler !== undefined && typeof handler !== 'function')
    check.fail(`handler must be a function, got ${typeof handler}`);
  if (handlers !== undefined) {
    if (typeof handlers !== 'object' || handlers === null || Array.isArray(handlers))
      check.fail('handlers must be an object of functions by label');
    for (const [label, route] of Object.entries(handlers)) {
      if (route !== undefined && typeof route !== 'function')
        check.fail(`handlers[${JSON.stringify(label)}] must be a function, got ${typeof route}`);
    }
  }
  return { handler, handlers };
}

/** The signer of `signing`, its key checked now (a bad key fails createCrawler, never quoting `d`). */
function resolveSigning(signing: SigningOptions | undefined): ResolvedCrawlerOptions['signing'] {
  if (signing === undefined) return undefined;
  if (typeof signing !== 'object' || signing === null)
    check.fail('signing must be an object: { key, signatureAgent, draft?, sign? }');
  const sign = signing.sign === undefined ? 'always' : signing.sign;
  if (sign !== 'always' && sign !== 'on-challenge')
    check.fail(`signing.sign must be 'always' or 'on-challenge', got ${describeValue(sign)}`);
  if (signing.draft !== undefined && typeof signing.draft !== 'string')
    check.fail(`signing.draft must be a draft's name, got ${describeValue(signing.draft)}`);
  if (typeof signing.signatureAgent !== 'string')
    check.fail(
      `signing.signatureAgent must be the https URL of the key directory, got ${describeValue(signing.signatureAgent)}`,
    );
  try {
    const signer = createRequestSigner(
      {
        key: signing.key,
        signatureAgent: signing.signatureAgent,
        ...(signing.draft === undefined ? {} : { draft: signing.draft }),
      },
      'signing',
    );
    return { signer, sign };
  } catch (error) {
    if (error instanceof Error) check.fail(error.message);
    throw error;
  }
}
