export {
  runToExit,
  type ServiceCommand,
  type SpawnedService,
  spawnService,
} from './spawn-service';
