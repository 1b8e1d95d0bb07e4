// @politely/cli: the `politely` command, callable in-process (tests, embedding) with your own streams.

export type { PageRecord } from './crawl/page-record.js';
export type { ExitCode } from './exit-codes.js';
export {
  EXIT_FAILURE,
  EXIT_INTERNAL,
  EXIT_INTERRUPTED,
  EXIT_IO,
  EXIT_OK,
  EXIT_TERMINATED,
  EXIT_UNAVAILABLE,
  EXIT_USAGE,
} from './exit-codes.js';
export type { Io } from './io.js';
export { main } from './main.js';
export type { CrawlReportCollector, CrawlReportCollectorOptions } from './report/collect-report.js';
export { createCrawlReportCollector } from './report/collect-report.js';
export { renderCrawlReport } from './report/render-report.js';
export type {
  CrawlReportData,
  GapEnd,
  GapSummary,
  HostReport,
  RenderReport,
  ReportError,
  ReportRequest,
  ReportTotals,
  RevisitReport,
  RobotsDecisionReport,
  RobotsFetchReport,
  TightestGap,
  UsageReservationReport,
} from './report/report-data.js';
