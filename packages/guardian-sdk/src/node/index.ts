export { openFileContractRegistry } from './file-contract-registry';
export {
  type RunGuardianProcessOptions,
  runGuardianProcess,
  type StoppableGuardian,
} from './run-guardian-process';
export { type StartedGuardian, type StartGuardianOptions, startGuardian } from './start-guardian';
