export {
  type AtCapacity,
  atCapacity,
  type HeldRequests,
  holdRequests,
  probeLatency,
} from './admission.testkit';
export {
  type PrometheusSample,
  parsePrometheusText,
  type RedoclyReport,
  redoclyLint,
  requestsTotal,
  unexpectedProblems,
} from './operations.testkit';
export {
  msUntilIdleSocketClosed,
  startFailure,
  type TemporaryDirs,
  temporaryDirs,
} from './socket-limits.testkit';
