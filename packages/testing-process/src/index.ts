export { type AppOptions, type SpawnedApp, spawnApp, type WorkspaceApp } from './spawn-app';
export {
  runToExit,
  type ServiceCommand,
  type SpawnedService,
  spawnService,
} from './spawn-service';
