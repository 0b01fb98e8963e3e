// A file run by `entry` from another working directory: says where it runs on stdout, waits,
// and on SIGTERM says so on stderr and exits 2 (as a `--once` run that is abandoned). The handler
// is in place before the line is written: the test signals as soon as it reads the line.
const keepAlive = setInterval(() => undefined, 1_000);
process.on('SIGTERM', () => {
  clearInterval(keepAlive);
  process.stderr.write('SIGTERM: abandoning\n');
  process.exit(2);
});
process.stdout.write(`cwd: ${process.cwd()}\n`);
