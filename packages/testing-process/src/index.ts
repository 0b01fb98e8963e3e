export { type AppOptions, type SpawnedApp, spawnApp, type WorkspaceApp } from './spawn-app';
export {
  type RunningProcess,
  runToExit,
  type ServiceCommand,
  type SpawnedService,
  spawnService,
  startProcess,
} from './spawn-service';
