// Preloaded into the apps by bench/probes-under-load.ts (NODE_OPTIONS=--import …) when PROFILE_DIR
// is set: Node 20 refuses --cpu-prof in NODE_OPTIONS, so the profiler is started here and its
// profile written to CPU_PROFILE_DIR/<pid>.cpuprofile when the process exits (a same-thread
// inspector session answers synchronously, so this works in an 'exit' listener).
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';

const dir = process.env.CPU_PROFILE_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.start');
  process.on('exit', () => {
    session.post('Profiler.stop', (error, result) => {
      if (!error)
        writeFileSync(join(dir, `${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
