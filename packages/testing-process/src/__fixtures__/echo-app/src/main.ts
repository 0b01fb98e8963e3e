// A minimal app for the spawn tests: listens on PORT, logs as the dcg apps do, drains on SIGTERM,
// and refuses a bad LOG_LEVEL with exit code 1.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

if (process.env.LOG_LEVEL === 'verbose') {
  console.error('echo-app: LOG_LEVEL must be one of info, silent; not "verbose"');
  process.exit(1);
}
const server = createServer((_req, res) => res.end(process.argv.slice(2).join(' ') || 'ok'));
server.listen(Number(process.env.PORT), process.env.HOST, () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write('not json: a plain line\n');
  console.log(JSON.stringify({ msg: 'listening', url: `http://127.0.0.1:${port}`, extra: 1 }));
});
process.on('SIGTERM', () => {
  console.log(JSON.stringify({ msg: 'stopping' }));
  server.close(() => process.exit(0));
});
