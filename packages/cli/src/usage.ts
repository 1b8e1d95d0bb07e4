// Help texts. `--help` prints them to stdout; a usage error prints them to stderr.

export const ROBOTS_USAGE = `Usage:
  politely robots batch
      Reads JSON lines from stdin, one check each:
        {"id": …, "robots": "<robots.txt text>", "ua": "<user agent>", "url": "<url>"}
      ("robots_b64": "<base64 of the exact bytes>" may replace "robots") and writes
        {"id": …, "allowed": true|false}
      per line, in input order. A line that cannot be read yields
        {"id": <id or null>, "line": <n>, "error": "<message>"}
      and a message on stderr; the batch goes on and exits with 1 at the end.

  politely robots explain [--robots FILE] --ua UA [--json] [--timeout MS] URL...
      For each URL: the verdict, the product token, the group chosen and the deciding line.
      Without --robots, each URL's origin's live robots.txt is fetched (once per origin) and
      its HTTP outcome applied as RFC 9309 says: 4xx allows all, 5xx/429/network errors
      disallow all for now. --timeout bounds each robots.txt request (default 10000 ms).
      --json prints one JSON object per URL (JSON lines) with at least
        {"allowed": bool, "reason": "rules|unavailable|unreachable|cached|…", "status": <HTTP status or null>}.

  politely robots lint [--json] FILE...
      Reports problems, one per line: FILE:LINE: severity: message [code].
      --json prints one JSON array of {file, line, severity, code, message}.
      Exits with 1 if any diagnostic is an error.
`;

export const USAGE = `politely: a polite web-crawler framework

Usage:
  politely robots batch|explain|lint ...   check URLs against robots.txt, lint robots.txt
  politely demo                            check the bundled demo robots.txt for a few URLs
  politely --help | --version

${ROBOTS_USAGE}
Exit codes:
  0   done
  1   done, with failures (batch lines that failed, lint errors)
  2   usage or input error (unknown command or option, missing argument, invalid URL,
      unreadable file)
  70  internal error (a bug in politely)
`;
