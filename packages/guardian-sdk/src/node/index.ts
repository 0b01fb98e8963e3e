export { openFileContractRegistry } from './file-contract-registry';
export { type RunGuardianProcessOptions, runGuardianProcess } from './run-guardian-process';
