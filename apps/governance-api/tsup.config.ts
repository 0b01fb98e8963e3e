import { appBuild } from '../../tsup.presets';

export default appBuild();
