// A file run by `entry` from another working directory: says where it runs on stdout, waits,
// and on SIGTERM says so on stderr and exits 2 (as a `--once` run that is abandoned).
process.stdout.write(`cwd: ${process.cwd()}\n`);
const keepAlive = setInterval(() => undefined, 1_000);
process.on('SIGTERM', () => {
  clearInterval(keepAlive);
  process.stderr.write('SIGTERM: abandoning\n');
  process.exit(2);
});
