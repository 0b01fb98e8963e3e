export { CodedError, hasBrand } from './coded-error';
export { CodedErrorWithIssues } from './coded-error-with-issues';
