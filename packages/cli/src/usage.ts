// Help texts. `--help` prints them to stdout; a usage error prints them to stderr.

export const ROBOTS_USAGE = `Usage:
  politely robots batch
      Reads JSON lines from stdin, one check each:
        {"id": …, "robots": "<robots.txt text>", "ua": "<user agent>", "url": "<url>"}
      ("robots_b64": "<base64 of the exact bytes>" may replace "robots") and writes
        {"id": …, "allowed": true|false}
      per line, in input order. A line that cannot be read (or whose url is not an absolute
      http(s) URL) yields
        {"id": <id or null>, "line": <n>, "error": "<message>"}
      and a message on stderr; the batch goes on and exits with 1 at the end.

  politely robots explain [--robots FILE] --ua UA [--robots-token TOKEN] [--json] [--timeout MS]
                         [--allow-net CIDR] URL...
      For each URL: the verdict, the product token, the group chosen and the deciding line,
      and the usage verdict per purpose (search, ai-input, ai-train, ai-train-images, tdm)
      from the Content-Usage and Content-Signal lines that apply, with their lines.
      --robots-token (repeatable) evaluates more product tokens besides the --ua's: every
      token's groups apply, the most restrictive verdict wins, and the output says which decided.
      Without --robots, each URL's origin's live robots.txt is fetched (once per origin) and
      its HTTP outcome applied as RFC 9309 says: 4xx allows all, 5xx/429/network errors
      disallow all for now. --timeout bounds each robots.txt request (default 10000 ms).
      Loopback, private and link-local addresses are refused (unreachable) unless
      --allow-net lets them through, e.g. --allow-net 127.0.0.0/8 (repeatable).
      --json prints one JSON object per URL (JSON lines) with at least
        {"allowed": bool, "reason": "rules|unavailable|unreachable|cached|…", "status": <HTTP status or null>}.

  politely robots lint [--json] FILE...
      Reports problems, one per line: FILE:LINE: severity: message [code].
      --json prints one JSON array of {file, line, severity, code, message}.
      Exits with 1 if any diagnostic is an error.
`;

export const SITEMAP_USAGE = `Usage:
  politely sitemap list --ua UA [--json] [--timeout MS] [--delay MS] [--allow-net CIDR] URL...
      Prints the URLs that sitemaps list, one per line. A URL whose path is / is a site: the
      sitemaps its robots.txt declares (Sitemap: lines) are read. Any other URL is a sitemap.
      Sitemap indexes are followed; XML, gzip, RSS, Atom and text sitemaps are read. Files are
      fetched as a crawl fetches them: robots.txt obeyed, one request per host at a time, at
      least --delay ms apart (default 250; a longer Crawl-delay wins); no page is fetched.
      --timeout bounds each request (default 10000 ms).
      --json prints JSON lines {"url", "lastmod", "changefreq", "priority", "sitemap"} (null
      for a field the sitemap does not give). Problems (a 404 sitemap, malformed XML, a file that
      arrived cut or damaged — its whole entries are listed, the file reported partial —, URLs
      left out of scope) go to stderr, one line each; exits with 1 if a sitemap could not be
      read whole.
`;

export const KEYS_USAGE = `Usage:
  politely keys generate [--json] FILE
      Makes an Ed25519 key for Web Bot Auth request signatures (docs/web-bot-auth.md) and
      writes it to FILE as a private JWK, readable by its owner only (mode 0600); an existing
      FILE is never overwritten. Prints the public key and its RFC 7638 thumbprint (the keyid
      of the signatures), never the private part. --json prints {"file", "keyid", "publicKey"}.
  politely keys directory --signature-agent URL [--valid-for DURATION] [--out DIR] [--json] FILE...
      What to publish at https://HOST/.well-known/http-message-signatures-directory (HOST the
      --signature-agent URL's): the key directory's JSON body (public keys only) and the headers
      its response must carry: Content-Type, Content-Digest and one signature per key FILE
      (tag "http-message-signatures-directory", covering the host and the body). They expire
      after --valid-for (default 7d): the command says when, and by when to refresh them (run
      it again). --out DIR writes DIR/http-message-signatures-directory and its .headers file;
      --json prints {"path", "body", "headers", "authority", "created", "expires", "keyids",
      "refreshBy"}.
`;

export const OUTPUTS_USAGE = `Usage:
  politely outputs merge --out FILE [--overwrite] [--json] INPUT...
      Merges the --out files of a crawl's workers (each with its INPUT.ledger; all JSON lines,
      or all CSV) into FILE, each page's record once: a page that a killed worker had written
      and another fetched again is in two of them, and the first INPUT given keeps it. Records
      past an INPUT's last commit (a page not done) are left out. FILE gets a ledger of its own.
      --overwrite replaces a FILE that holds records. --json prints the figures as JSON.
`;

export const SIGN_USAGE = `Usage:
  politely sign explain --signing-key FILE --signature-agent URL [--signature-draft D] [--json] URL...
      Prints the Web Bot Auth headers a crawl would send to each URL (Signature-Agent,
      Signature-Input, Signature) and the RFC 9421 signature base that was signed, for
      debugging a verifier's refusal. Nothing is fetched; the private key is never printed.
      --json prints one {"url", "headers", "base"} object per URL (JSON lines).
`;

export const CRAWL_USAGE = `Usage:
  politely crawl --ua UA [options] SEED...
      Crawls from the seed URLs, politely: robots.txt obeyed (fetched once per host; 5xx means
      nothing may be fetched), one request per host at a time, at least --delay ms apart (a
      longer Crawl-delay wins). Links are followed within --scope.
        --ua UA                    user agent, required: 'MyBot/1.0 (+https://example.com/bot)'
        --config FILE              settings from a .json, .yaml or .yml file: every flag below as a
                                   key ("max-pages": 500, "sitemaps": true, "out": [...]) and
                                   "seeds": [...]; flags given here override the file
        --print-config             print the effective settings (as a config file, defaults
                                   included, secrets hidden) and exit without crawling
        --max-pages N              pages fetched at most (default: no limit)
        --max-depth N              link distance from a seed (default 100)
        --max-pages-per-host N     URLs taken per host at most (default 100000)
        --max-redirects N          redirect hops followed from one URL (default 5)
        --max-body BYTES           largest body, decoded and as received (default 10485760)
        --max-links N              links taken from one page (default 10000)
        --retries N                attempts after the first for 5xx, 429, network errors and
                                   timeouts (default 2)
        --no-traps                 turn off the trap heuristic (repeated path segments, growing
                                   query strings, calendar pages far from today: skipped as trap)
        --scope MODE               same-origin | same-host | same-domain | any (default same-domain)
        --delay MS                 least gap between requests to one host (default 250)
        --concurrency N            requests in flight overall, at most (default 16; fewer
                                   while this process's CPU cannot keep up)
        --fixed-concurrency        keep --concurrency in flight whenever URLs are ready
        --per-host-concurrency N   requests in flight per host (default 1)
        --timeout MS               deadline of one response (default 30000)
        --sitemaps                 also crawl what the seeds' robots.txt Sitemap: lines list
        --store STORE              memory (default; lost on exit) | sqlite:FILE (resumable)
                                   | redis://HOST:PORT/DB with --crawl-id NAME (shared)
                                   | redis-cluster://HOST:PORT,HOST:PORT with --crawl-id NAME
                                   (a Redis Cluster: any reachable nodes; rediss-cluster:// for TLS)
        --out FILE                 one record per page: JSON lines, or CSV if FILE ends in .csv
                                   (url, finalUrl, status, contentType, depth, title, bytes,
                                   fetchedAt, noindex, nofollow, canonical, usage,
                                   usageSources, change); may be repeated.
                                   A resumed crawl (--store sqlite:/redis:) appends to it and
                                   writes no page twice (FILE.ledger, kept beside it, says which
                                   pages it holds); a fresh one refuses a file that holds
                                   records unless --overwrite is given
        --content markdown|text    each --out record also carries the page's main content
                                   (markdown or text) with authors, published, modified, lang,
                                   canonicalUrl, description, siteName; title becomes the
                                   content's title; usage and usageSources are its rights
        --overwrite                let a fresh crawl replace --out files (or a --warc archive)
                                   that hold records
        --warc FILE                archive every request and response (robots.txt, pages,
                                   redirects, errors) as WARC/1.1, as sent and received; FILE
                                   ends in .warc, or .warc.gz (compressed record by record);
                                   written as FILE-00000.warc.gz, -00001, … (FILE.ledger beside
                                   them lets a resumed crawl cut a half-written record); a
                                   recrawl's unchanged pages and 304s are revisit records
        --warc-max-size BYTES      one archive file's size limit (default 1073741824)
        --cdx                      also write a CDXJ index beside the archive (FILE's name,
                                   .cdxj), sorted for pywb
        --report FILE              a self-contained HTML report: per host the request timeline,
                                   gaps against the crawl-delay, robots.txt decisions,
                                   usage preferences (reserved purposes, by source)
        --log plain|json           log lines (one per request, skip and error, and a status line
                                   every --status-interval ms, default 2000) instead of the
                                   progress bars; the default when stdout is not a terminal;
                                   json: every line (warnings and errors too) one JSON object
                                   with level, time, event and its fields
        --log-file PATH            write the log lines to PATH (appended to) instead of stdout
        --stop-grace DURATION      after SIGTERM or Ctrl-C, how long requests in flight may end
                                   before they are aborted and their URLs kept (default 10s)
        --metrics [HOST:]PORT      serve /metrics (Prometheus), /healthz and /readyz (the store
                                   answers) while crawling; a bare port is 127.0.0.1; port 0:
                                   any free port (the address is printed on stderr)
        --metrics-linger DURATION  keep /metrics up this long after the crawl ends, for a last
                                   scrape (SIGTERM or Ctrl-C ends it; default 0)
        --allow-net CIDR           let the SSRF guard through to a private network, e.g.
                                   127.0.0.0/8 (repeatable); loopback, private and link-local
                                   addresses are refused otherwise (skipped as blocked-address)
        --header 'NAME: VALUE'     a header sent with every request, robots.txt included
                                   (repeatable); hop-by-hop headers, Host, User-Agent,
                                   Content-Length and From are refused
        --from EMAIL               your contact address, sent as From with every request
                                   (RFC 9110), so a site owner can reach a person
        --cookies                  keep cookies (RFC 6265): what a site sets is sent back to it,
                                   never to another site; kept in a sqlite:/redis: store, so a
                                   resumed crawl keeps its session
        --proxy URL                send every request through one proxy, http://HOST:PORT (or
                                   http://USER:PASS@HOST:PORT); the SSRF guard still checks every
                                   target, and a proxy on a private network needs --allow-net
        --signing-key FILE         sign every request (Web Bot Auth, RFC 9421) with this private
                                   Ed25519 JWK (politely keys generate FILE makes one)
        --signature-agent URL      with --signing-key: your key directory's origin, https://HOST
                                   (verifiers fetch /.well-known/http-message-signatures-directory)
        --signature-draft D        meunier (default: Signature-Agent as a quoted string, which
                                   Cloudflare's web-bot-auth verifier accepts) or ietf-01 (a
                                   dictionary member, covered with ;key=, which it refuses)
        --sign WHEN                always (default with --signing-key) or on-challenge: unsigned
                                   until a host answers 401/403/429 with Accept-Signature; that
                                   request is retried once, signed, at the host's pace, and the
                                   host's later requests are signed
        --purpose NAME             what the pages are for (repeatable): search, ai-input, ai-train,
                                   ai-train-images, tdm. A URL whose site reserves it for one of
                                   them (robots.txt Content-Usage/Content-Signal, tdmrep.json,
                                   headers, meta tags) is skipped as usage-reserved, and no
                                   record is written for it; without it verdicts are only recorded
        --robots-token TOKEN       a product token robots.txt is also evaluated for (repeatable),
                                   e.g. MyBot-Training beside --ua MyBot/1.0: every token's
                                   groups apply, the most restrictive verdict wins
        --recrawl                  revisit the URLs an earlier crawl in --store fetched, when due
                                   (freshness out and the revisit interval passed, or a sitemap
                                   lastmod newer than the fetch), sending If-None-Match and
                                   If-Modified-Since; a 304 costs no body. Records say change:
                                   new, not-modified, unchanged or changed
        --revisit-min DURATION     shortest revisit interval (default 0): ms, or 30s, 15m, 6h, 7d
        --revisit-max DURATION     longest a fetched URL waits for a recrawl, whatever its
                                   freshness, interval or sitemap say (default 30d)
        --retry-failed             put back the URLs an earlier crawl in --store failed (after its
                                   retries) and the seeds it refused, and try them again
        --fresh                    start the crawl in --store over: every URL it holds is
                                   forgotten (the robots.txt cache is kept); --out files are
                                   written anew, so an existing one needs --overwrite
        --render                   render pages in Chromium (Debian's chromium, found on the PATH)
                                   before links are read: every script, API call and frame the
                                   page asks for goes through the crawler (robots.txt, address
                                   guard, --ua, each host's delay); pictures, media and fonts
                                   are not loaded, WebSockets never opened
        --render-wait EVENT        when a rendered page counts as loaded: networkidle (default),
                                   load or domcontentloaded
        --render-timeout DURATION  longest one page's render may take (default 60s), its
                                   requests' waits for their hosts included; then it is retried
        --chromium PATH            the Chromium to render with (default: chromium on the PATH)
        --politeness-key KEY       host (default) | domain | ip: which requests share one clock,
                                   delay and --per-host-concurrency: one host name, one
                                   registrable domain (a.example.com with b.example.com), or one
                                   server address (every name it hosts; names resolved once,
                                   requests sent to that address). robots.txt stays per origin
        --resolve NAME:ADDRESS     answer NAME with ADDRESS instead of DNS (repeatable), as curl's
                                   --resolve; the SSRF guard still judges ADDRESS
      SIGTERM and Ctrl-C (SIGINT) stop cleanly: no new requests, those in flight get
      --stop-grace to end (then are aborted, their URLs kept in the store), outputs and the
      report are written, and the summary says what was kept (exit code 143 for SIGTERM, 130 for
      Ctrl-C). A second signal aborts what is in flight at once. Under a scheduler or in a
      container, run the bin with node (node …/bin/politely.js crawl …) so the signal reaches it.
`;

export const CONTROL_USAGE = `Usage:
  politely control pause|resume|stop --store redis://HOST:PORT/DB --crawl-id NAME
      Tells every worker of a running Redis crawl, within half a second: pause (claim nothing
      new; requests in flight finish), resume, or stop (as SIGTERM stops each worker: requests
      in flight get --stop-grace, outputs and the report are written). A worker that starts
      while the crawl is paused waits too; a stop written before a worker started does not
      stop it.
`;

export const SEEDS_USAGE = `Usage:
  politely seeds add --store sqlite:FILE|redis://HOST:PORT/DB [--crawl-id NAME] [options] URL...
      Adds seeds to a crawl, running or not, from another process: their sites join the
      crawl's scope (kept in the store), every running worker widens its scope within a second
      and follows their links, and a run that resumes the crawl keeps them; then the seeds are
      queued (about a second later). A SQLite crawl file is opened shared: the crawl running
      on it needs no option. An invalid URL is named (with its line) and the others are added
      (exit code 1).
        --store STORE          the crawl's store: sqlite:FILE, or redis://… with --crawl-id
        --crawl-id NAME        the crawl's name in Redis
        --file FILE            read seeds from FILE, one URL a line (- for stdin; blank lines
                               and lines starting with # are skipped)
        --politeness-key KEY   the crawl's: host (default) | domain
`;

export const DEMO_USAGE = `Usage:
  politely demo [--out-dir DIR] [--log plain|json]
      Starts the bundled demo web (eight sites on 127.0.0.2-9, with robots.txt files, sitemaps,
      redirects, a host whose robots.txt answers 503 and an endless calendar) and the usage web
      (five sites on 127.0.0.90-94 stating how their content may be used: Content-Signal,
      Content-Usage, TDMRep, noai), crawls them politely as PolitelyDemo, writes the pages
      (pages.jsonl, with their usage verdicts), an HTML report (report.html) and a
      WARC archive of every request and response (crawl-00000.warc.gz, indexed in
      crawl.cdxj) into DIR (default ./politely-demo), checks the servers' logs for any request robots.txt
      disallowed or any gap shorter than a host's crawl-delay (exit code 1 if one is found),
      stops the web and prints a summary. Takes about 12 seconds.
`;

export const USAGE = `politely: a polite web-crawler framework

Usage:
  politely crawl --ua UA [options] SEED...  crawl politely; pages to JSON lines or CSV, HTML report
  politely demo                            crawl the bundled demo web and write a report
  politely robots batch|explain|lint ...   check URLs against robots.txt, lint robots.txt
  politely sitemap list ...                list the URLs of sites' sitemaps
  politely keys generate FILE              make a Web Bot Auth signing key (private JWK, mode 0600)
  politely keys directory ... FILE...      the key directory to publish, and its signed headers
  politely sign explain ... URL...         the signature headers and base a crawl would send
  politely outputs merge --out FILE IN...  merge the --out files of a crawl's workers, each record once
  politely control pause|resume|stop ...   pause, resume or stop every worker of a Redis crawl
  politely seeds add --store … URL...      add seeds (and their sites to the scope) to a running crawl
  politely --help | --version

${CRAWL_USAGE}
${CONTROL_USAGE}
${SEEDS_USAGE}
${DEMO_USAGE}
${ROBOTS_USAGE}
${SITEMAP_USAGE}
${KEYS_USAGE}
${SIGN_USAGE}
${OUTPUTS_USAGE}
Numbers (N, BYTES, MS): whole decimal numbers, digits only (no sign, fraction or exponent).
An MS value is in milliseconds, or takes a unit: 500ms, 2s.

Exit codes:
  0   done
  1   done, with failures (batch lines that failed, lint errors, sitemaps not read,
      seeds add lines that are not URLs)
  2   usage or input error (unknown command or option, missing argument, invalid URL or
      number, unreadable file)
  70  internal error (a bug in politely)
  74  an output could not be written (disk full, another process writing it, a file that
      holds records and no --overwrite)
  130 crawl stopped by Ctrl-C (SIGINT; outputs written, see the summary)
  143 crawl stopped by SIGTERM (outputs written, see the summary)
`;
