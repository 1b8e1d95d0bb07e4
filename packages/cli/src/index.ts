// @politely/cli: the `politely` command, callable in-process (tests, embedding) with your own streams.

export { main } from './main.js';
export type { Io } from './io.js';
export { EXIT_OK, EXIT_FAILURE, EXIT_USAGE, EXIT_UNAVAILABLE, EXIT_IO, EXIT_INTERNAL } from './exit-codes.js';
export type { ExitCode } from './exit-codes.js';
export { EXIT_INTERRUPTED } from './exit-codes.js';
export { renderCrawlReport } from './report/render-report.js';
export { createCrawlReportCollector } from './report/collect-report.js';
export type { CrawlReportCollector, CrawlReportCollectorOptions } from './report/collect-report.js';
export type {
  CrawlReportData,
  HostReport,
  ReportRequest,
  GapSummary,
  RobotsFetchReport,
  RobotsDecisionReport,
  UsageReservationReport,
  ReportError,
  ReportTotals,
  RenderReport,
  RevisitReport,
} from './report/report-data.js';
export type { PageRecord } from './crawl/page-record.js';
