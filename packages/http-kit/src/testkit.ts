export {
  type PrometheusSample,
  parsePrometheusText,
  type RedoclyReport,
  redoclyLint,
  unexpectedProblems,
} from './operations.testkit';
export {
  msUntilIdleSocketClosed,
  type TemporaryDirs,
  temporaryDirs,
} from './socket-limits.testkit';
