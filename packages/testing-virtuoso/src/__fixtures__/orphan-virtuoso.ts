// Started by start-virtuoso.test.ts in its own process, which is then killed with SIGKILL: the
// watchdog must take this Virtuoso down, with nobody calling stop().
import { startVirtuoso } from '../start-virtuoso';

const virtuoso = await startVirtuoso();
process.stdout.write(`${JSON.stringify({ pid: virtuoso.pid, dir: virtuoso.dir })}\n`);
setInterval(() => undefined, 1000);
