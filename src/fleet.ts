// The package's "siteops/fleet" entry: running the SDK over many sites from scripts, cron and CI, as the CLI, the
// GitHub Action and the Terraform provider do. Site selection (ids, exact names, all, status, shard), the fleet
// snapshot run, upgrade rollouts in waves gated on evidence, vulnerability reports (JSON, Markdown, SARIF for code
// scanning), policies and core fixes, shards and the shard files of a matrix, retention policies, a bounded worker
// pool, and one-line descriptions of failures. Built on the root entry ("siteops"); nothing here is needed to call
// the API.

export {
  isSiteId,
  listAllSites,
  lookupSites,
  MAX_SITES_FETCHED_BY_ID,
  selectFleet,
  selectSite,
  selectSites,
  SITE_ID_PATTERN,
  siteIdOf,
  SITES_PER_PAGE,
  SiteSelectionError,
  type SelectedFleet,
  type SelectSitesOptions,
  type SiteSelection,
} from "./operations/sites.js";
export { checkSelection, EmptySelectionError, type SelectionCheck } from "./operations/fleet-selection.js";
export {
  DEFAULT_FLEET_CONCURRENCY,
  snapshotFleet,
  type FleetSnapshotEvent,
  type FleetSnapshotOptions,
  type SiteSnapshotOutcome,
  type SiteSnapshotResult,
  type SnapshotRequestRecord,
} from "./operations/fleet-snapshot.js";
export type { SnapshotRequestName } from "./operations/keyed-snapshot.js";
export {
  MATRIX_FILE_NAME,
  parseShardFile,
  readShardFile,
  SHARD_FILE_FORMAT,
  ShardFileError,
  shardFileName,
  shardFiles,
  writeShardFiles,
  type ShardFile,
  type ReadShardFileOptions,
  type ShardMatrixEntry,
  type ShardSites,
} from "./operations/shard-files.js";
export { formatShard, inShard, MAX_MATRIX_JOBS, parseShard, shardMatrix, shardOf, ShardSpecError, type Shard } from "./shards.js";
export { applyRetention, isEmptyPolicy, RetentionPolicyError } from "./retention.js";
export { mapPool } from "./pool.js";
export { describeError, errorFacts, errorKind, isRefusal, type DescribeErrorOptions, type ErrorFacts, type ErrorKind } from "./describe-error.js";
export {
  DISMISSED_REASONS,
  isOpenRecord,
  isVulnerabilitySeverity,
  parseSeverity,
  reportSeverity,
  SEVERITIES_WORST_FIRST,
  severityRank,
  VULNERABILITY_SEVERITIES,
  type ReportSeverity,
} from "./operations/vulnerability-record-rules.js";
export {
  advisoryId,
  buildVulnerabilityReport,
  collectVulnerabilityRecords,
  compareEntries,
  DEFAULT_REPORT_CONCURRENCY,
  findingFingerprint,
  parseReportSeverities,
  readVulnerabilityReport,
  reportEntries,
  vulnerabilitySummaryLine,
  type CollectVulnerabilityOptions,
  type ParsedReportSeverities,
  type ReportOptionNames,
  type SeverityCounts,
  type SiteVulnerabilityRecords,
  type VulnerabilityReport,
  type VulnerabilityReportEntry,
  type VulnerabilityReportGroup,
  type VulnerabilityReportOptions,
} from "./operations/vulnerability-report.js";
export {
  VULNERABILITY_REPORT_ROW_FIELDS,
  vulnerabilityAdvisories,
  vulnerabilityReportRows,
  type VulnerabilityAdvisory,
  type VulnerabilityAdvisorySite,
  type VulnerabilityReportRow,
} from "./operations/vulnerability-report-rows.js";
export { vulnerabilityReportMarkdown, type VulnerabilityMarkdownOptions } from "./operations/vulnerability-report-markdown.js";
export {
  CODE_SCANNING_MAX_BYTES,
  CODE_SCANNING_MAX_RESULTS,
  FINGERPRINT_KEY,
  SARIF_SCHEMA_URI,
  vulnerabilitySarif,
  type VulnerabilitySarif,
  type VulnerabilitySarifOptions,
} from "./operations/vulnerability-sarif.js";
export {
  checkDeclarationsDir,
  vulnerabilitySarifFile,
  type VulnerabilitySarifFile,
  type VulnerabilitySarifWarning,
} from "./operations/vulnerability-sarif-file.js";
export {
  declarationFiles,
  findSiteDeclarations,
  type FindSiteDeclarationsOptions,
  type SiteDeclaration,
} from "./operations/vulnerability-sarif-declarations.js";
export {
  acceptanceComment,
  dismissedByPolicy,
  hasPolicyMarker,
  parseVulnerabilityPolicy,
  VulnerabilityPolicyError,
  type PolicyAcceptance,
  type VulnerabilityPolicy,
} from "./operations/vulnerability-policy.js";
export {
  applyVulnerabilityPolicy,
  planVulnerabilityPolicy,
  type ApplyVulnerabilityPolicyOptions,
  type PlanVulnerabilityPolicyOptions,
  type PolicyApplyResult,
  type PolicyChange,
  type PolicyChangeResult,
  type PolicyCounts,
  type PolicyPlan,
  type PolicyScope,
  type PolicyWarning,
  type SiteRecords,
} from "./operations/vulnerability-policy-apply.js";
export {
  fixCoreVulnerabilities,
  planCoreFix,
  type CoreFixDecision,
  type CoreFixPlan,
  type CoreFixResult,
  type FixCoreVulnerabilitiesOptions,
} from "./operations/vulnerability-fix.js";
export {
  readRecordFilter,
  readRecordUpdate,
  readVulnerabilityReportOptions,
  VULNERABILITY_FIX_OPTIONS,
  VULNERABILITY_POLICY_OPTIONS,
  VULNERABILITY_RECORD_OPTIONS,
  VULNERABILITY_REPORT_FORMATS,
  VULNERABILITY_REPORT_OPTIONS,
  VULNERABILITY_STATUSES,
  type OptionLabel,
  type ReadReportOptions,
  type VulnerabilityOptionDeclaration,
} from "./operations/vulnerability-options.js";
export {
  ADVISORY_COLUMNS,
  openCountsWorstFirst,
  RECORD_COLUMNS,
  recordFacts,
  vulnerabilityAdvisoryLines,
  vulnerabilityFailingLine,
  vulnerabilityReportPassed,
  vulnerabilityReportRecord,
  vulnerabilityReportText,
  vulnerabilitySiteResults,
  vulnerabilityUnreadLine,
  type AdvisoryLine,
  type DescribeError,
  type ReportTextFormat,
} from "./operations/vulnerability-report-text.js";
export type { TextColumn } from "./operations/text-column.js";
export {
  MAX_NEWS_RECORDS,
  vulnerabilityNews,
  vulnerabilityNewsBody,
  vulnerabilityNewsLines,
  type SeenRecord,
  type VulnerabilityNews,
} from "./operations/vulnerability-news.js";
export {
  POLICY_CHANGE_COLUMNS,
  POLICY_CHANGE_ROW_FIELDS,
  policyChangeRows,
  policyCountsLine,
  policyFailureLine,
  policyLines,
  policyVerdict,
  type PolicyChangeRow,
  type PolicyLine,
  type PolicyNames,
} from "./operations/vulnerability-policy-text.js";
export {
  CORE_FIX_COLUMNS,
  CORE_FIX_ROW_FIELDS,
  coreFixLine,
  coreFixRows,
  EXTENSION_COLUMNS,
  EXTENSIONS_HEADING,
  fixExtensions,
  type CoreFixRow,
  type FixRecordRef,
} from "./operations/vulnerability-fix-rows.js";
export {
  allowedFailures,
  DEFAULT_WAVES,
  formatTarget,
  formatWave,
  MAX_WAVES,
  mergedWaveNote,
  parseFailureBudget,
  parseWaves,
  planRollout,
  planWaves,
  reachesTarget,
  rolloutOrder,
  RolloutSpecError,
  targetKey,
  type FailureBudget,
  type MergedWave,
  type RolloutPlan,
  type RolloutTarget,
  type WaveSpec,
} from "./operations/rollout-plan.js";
export {
  checkHttp,
  DEFAULT_CHECK_BUDGET_MS,
  FATAL_ERROR_MARKERS,
  judgeHealth,
  judgePipeline,
  ROLLOUT_GATES,
  type GateCheck,
  type RolloutGate,
} from "./operations/rollout-gates.js";
export { checkPathProblem, guardedLookup, type HttpGateLookup, REFUSED_ADDRESS } from "./operations/site-requests.js";
export {
  DEFAULT_CHECK_PATH,
  DEFAULT_HEALTH_WAIT_MS,
  DEFAULT_MAX_FAILURES,
  DEFAULT_ROLLOUT_CONCURRENCY,
  DEFAULT_UNKNOWN_STATE_WAIT_MS,
  DEFAULT_WAVE_TIMEOUT_MS,
  defaultText,
  MAX_ROLLOUT_CONCURRENCY,
  ROLLOUT_OPTIONS,
  rolloutOption,
  type DurationStyle,
  type RolloutOptionDeclaration,
  type RolloutOptionKind,
} from "./operations/rollout-options.js";
export { readRolloutSettings, rolloutVisualSettings, type ReadRolloutSettings } from "./operations/rollout-settings.js";
export { KNOWN_PIPELINE_STATES, UnknownPipelineStateError } from "./operations/rollout-follow.js";
export { TargetRefusedError } from "./operations/rollout-open.js";
export { rolloutUpgrade } from "./operations/rollout.js";
export {
  askedRows,
  continueLines,
  endLines,
  eventLines,
  type LineLevel,
  notListedLine,
  planLines,
  rolloutColumns,
  rolloutFailureLine,
  RolloutProgress,
  rolloutVerdict,
  stopLine,
  WAVE_VERDICTS,
  waveLine,
} from "./operations/rollout-text.js";
export {
  failureGroups,
  ROLLOUT_ROW_FIELDS,
  rolloutCounts,
  rolloutPlanReport,
  rolloutPlanRows,
  rolloutReport,
  rolloutRows,
  rolloutTotals,
  type FailureGroup,
  type RolloutReport,
  type RolloutRow,
  type RolloutWaveRecord,
} from "./operations/rollout-rows.js";
export {
  PipelineActiveError,
  SITE_ROLLOUT_OUTCOMES,
  type PipelineRequestName,
  type PipelineRequestRecord,
  type RolloutClient,
  type RolloutCounts,
  type RolloutEvent,
  type RolloutFailure,
  type RolloutOptions,
  type RolloutOutcome,
  type RolloutRefusal,
  type RolloutResult,
  type RolloutSettings,
  type SiteRolloutOutcome,
  type SiteRolloutResult,
  type WaveResult,
  type WaveVerdict,
} from "./operations/rollout-types.js";
export {
  DEFAULT_PAGE_TIMEOUT_MS,
  DEFAULT_VIEWPORTS,
  DEFAULT_VISUAL_CONCURRENCY,
  DEFAULT_VISUAL_THRESHOLD,
  MAX_VISUAL_PATHS,
  parsePagePath,
  parseSelector,
  parseThreshold,
  parseViewport,
  parseViewports,
  VisualSettingsError,
  type Viewport,
  type VisualSettings,
} from "./operations/visual-settings.js";
export {
  failingPages,
  formatShare,
  missedDetail,
  pageDetail,
  passes,
  siteDetail,
  visualGateLine,
  type FailingPage,
  type PageCheck,
  type PageVerdict,
  type SiteCheck,
  type VisualEvidence,
  type VisualGateReport,
  type VisualSite,
} from "./operations/visual-verdict.js";
