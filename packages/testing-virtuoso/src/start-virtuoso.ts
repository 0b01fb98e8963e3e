import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findExecutable, virtuosoDefaults } from './availability';
import { VirtuosoError } from './errors';
import { freeLoopbackPorts } from './free-ports';
import { type IniOverrides, setIniValue } from './ini-file';
import { runIsql, sqlString } from './isql';

/** Options of {@link startVirtuoso}. Every one has a default that works on a Debian machine. */
export interface StartVirtuosoOptions {
  /** Folder for the database, log and loaded files. Default: a new temp folder, removed on stop. A given folder is kept. */
  readonly dir?: string;
  /** Server program. Default `virtuoso-t` from PATH. */
  readonly virtuosoBin?: string;
  /** SQL client. Default `isql-vt` from PATH. */
  readonly isqlBin?: string;
  /** virtuoso.ini to start from. Default `/etc/virtuoso-opensource-7/virtuoso.ini`. */
  readonly iniTemplate?: string;
  /** Extra ini entries, e.g. `{ Parameters: { NumberOfBuffers: 170000 }, SPARQL: { ResultSetMaxRows: 1000000 } }`. */
  readonly ini?: IniOverrides;
  /** How long start-up may take before it is abandoned. Default 90 s (busy CI machines are slow). */
  readonly startTimeoutMs?: number;
}

/** A running Virtuoso started by {@link startVirtuoso}. */
export interface RunningVirtuoso {
  /** SPARQL endpoint, `http://127.0.0.1:<httpPort>/sparql` (GET `?query=` or form POST). */
  readonly sparqlUrl: string;
  readonly httpPort: number;
  readonly sqlPort: number;
  /** Folder that holds the database, `virtuoso.ini` and `virtuoso.log`. */
  readonly dir: string;
  /** Process id of the server. */
  readonly pid: number;
  /**
   * Loads RDF into the named graph `graphIri` with Virtuoso's bulk loader and checkpoints. The
   * first argument is a file path (or `file:` URL; .nt, .ttl, .nq, .trig, .n3, .owl, .rdf) or the
   * N-Triples/Turtle text itself: a string containing `<` is text, any other string is a path.
   * Loads run one after the other; a syntax error rejects with the loader's message.
   */
  load(ntriplesFileOrText: string | URL, graphIri: string): Promise<void>;
  /** Runs SQL statements through isql-vt and resolves with its output (for special set-ups). */
  sql(statements: string): Promise<string>;
  /** Stops the server (SIGTERM, then SIGKILL after 10 s) and removes the temp folder. Idempotent. */
  stop(): Promise<void>;
}

const loadableExtensions = new Set(['.nt', '.ttl', '.nq', '.trig', '.n3', '.owl', '.rdf']);
// IRIs go into a SQL string and a SPARQL <…>: refuse everything RFC 3987 does not allow there.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we refuse
const invalidIriCharacters = /[\u0000-\u0020<>"{}|^`\\']/;
const onlineLine = /Server online at/;
const maxStartAttempts = 3;

// Servers still running in this process: killed synchronously if the process exits without stop().
const running = new Map<number, { dir: string; removeDir: boolean }>();
let exitHookInstalled = false;

/**
 * Starts a private Virtuoso on two free loopback ports with its own database folder: the Debian
 * virtuoso.ini is copied, its database files, ports and `DirsAllowed` are pointed at the folder,
 * and `virtuoso-t +foreground` runs until {@link RunningVirtuoso.stop}. A watchdog process kills
 * the server if the starting process dies without stopping it (even by SIGKILL), so no test run
 * leaves a server behind.
 *
 * @example
 * const virtuoso = await startVirtuoso();
 * try {
 *   await virtuoso.load('<https://ex.org/a> <http://www.w3.org/2000/01/rdf-schema#label> "A" .\n', 'https://ex.org/g');
 *   const url = `${virtuoso.sparqlUrl}?query=${encodeURIComponent('SELECT * { ?s ?p ?o }')}`;
 *   const answer = await fetch(url, { headers: { accept: 'application/sparql-results+json' } });
 * } finally {
 *   await virtuoso.stop();
 * }
 */
export async function startVirtuoso(options: StartVirtuosoOptions = {}): Promise<RunningVirtuoso> {
  const virtuosoBin = await requireExecutable(options.virtuosoBin ?? virtuosoDefaults.virtuosoBin);
  const isqlBin = await requireExecutable(options.isqlBin ?? virtuosoDefaults.isqlBin);
  const iniTemplate = options.iniTemplate ?? virtuosoDefaults.iniTemplate;
  let template: string;
  try {
    template = await readFile(iniTemplate, 'utf8');
  } catch (cause) {
    throw new VirtuosoError('unavailable', `cannot read ${iniTemplate}`, { cause });
  }

  const removeDir = options.dir === undefined;
  const dir = options.dir
    ? resolvePath(options.dir)
    : await mkdtemp(join(tmpdir(), 'dcg-virtuoso-'));
  // The folder goes into DirsAllowed (comma-separated) and into SQL strings.
  if (/[,'\\\s]/.test(dir)) {
    throw new VirtuosoError(
      'invalid_input',
      `folder ${JSON.stringify(dir)} must not contain commas, quotes, backslashes or spaces`,
    );
  }
  await mkdir(join(dir, 'vad'), { recursive: true });

  // A database already in a given folder is the caller's: it is reused and never deleted.
  const hadDatabase = existsSync(join(dir, 'virtuoso.db'));
  let lastError: unknown;
  for (let attempt = 1; attempt <= maxStartAttempts; attempt += 1) {
    const [sqlPort, httpPort] = (await freeLoopbackPorts(2)) as [number, number];
    const ini = buildIni(template, dir, sqlPort, httpPort, options.ini ?? {});
    await writeFile(join(dir, 'virtuoso.ini'), ini);
    try {
      const child = await launch(virtuosoBin, dir, options.startTimeoutMs ?? 90_000);
      return makeHandle({ child, dir, removeDir, sqlPort, httpPort, isqlBin });
    } catch (error) {
      lastError = error;
      // A port taken between our probe and the bind fails start-up: retry on fresh ports, with a
      // fresh database if we were creating it (a half-created one would not open).
      if (!hadDatabase) await removeDatabaseFiles(dir);
      if (VirtuosoError.isInstance(error) && error.code === 'start_timeout') break;
    }
  }
  if (removeDir) await rm(dir, { recursive: true, force: true });
  throw lastError;
}

async function requireExecutable(bin: string): Promise<string> {
  const found = await findExecutable(bin);
  if (found === undefined) {
    throw new VirtuosoError(
      'unavailable',
      `${bin} not found or not executable (apt-get install virtuoso-opensource); use isVirtuosoAvailable() to skip`,
    );
  }
  return found;
}

function buildIni(
  template: string,
  dir: string,
  sqlPort: number,
  httpPort: number,
  overrides: IniOverrides,
): string {
  let ini = template;
  const files: [string, string, string][] = [
    ['Database', 'DatabaseFile', 'virtuoso.db'],
    ['Database', 'ErrorLogFile', 'virtuoso.log'],
    ['Database', 'LockFile', 'virtuoso.lck'],
    ['Database', 'TransactionFile', 'virtuoso.trx'],
    ['Database', 'xa_persistent_file', 'virtuoso.pxa'],
    ['TempDatabase', 'DatabaseFile', 'virtuoso-temp.db'],
    ['TempDatabase', 'TransactionFile', 'virtuoso-temp.trx'],
  ];
  for (const [section, key, file] of files) ini = setIniValue(ini, section, key, join(dir, file));
  ini = setIniValue(ini, 'Parameters', 'ServerPort', `127.0.0.1:${sqlPort}`);
  ini = setIniValue(ini, 'HTTPServer', 'ServerPort', `127.0.0.1:${httpPort}`);
  ini = setIniValue(ini, 'URIQA', 'DefaultHost', `127.0.0.1:${httpPort}`);
  // No VAD folder: a fresh database would otherwise install the Conductor web UI, about a third
  // of the start-up time, which a SPARQL test server never uses.
  ini = setIniValue(ini, 'Parameters', 'DirsAllowed', `., ${dir}`);
  ini = setIniValue(ini, 'Parameters', 'VADInstallDir', `${join(dir, 'vad')}/`);
  for (const [section, entries] of Object.entries(overrides)) {
    for (const [key, value] of Object.entries(entries)) ini = setIniValue(ini, section, key, value);
  }
  return ini;
}

function launch(virtuosoBin: string, dir: string, timeoutMs: number): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    // +foreground keeps the server as our own child, so we hold its real pid and see it exit;
    // the log on stderr says when it is online (what +wait would wait for).
    const child = spawn(virtuosoBin, ['+foreground', '+configfile', join(dir, 'virtuoso.ini')], {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let log = '';
    let settled = false;
    const finish = (error?: VirtuosoError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.stderr?.removeAllListeners('data');
      // Keep draining so a chatty server never blocks on a full pipe.
      child.stderr?.resume();
      // A forgotten stop() must not keep the test process alive; the exit hook kills the server.
      child.unref();
      (child.stderr as { unref?: () => void } | null)?.unref?.();
      if (error) {
        child.kill('SIGKILL');
        reject(error);
      } else {
        resolve(child);
      }
    };
    const timer = setTimeout(() => {
      finish(
        new VirtuosoError(
          'start_timeout',
          `virtuoso-t did not come online within ${timeoutMs} ms; log tail:\n${tail(log)}`,
        ),
      );
    }, timeoutMs);
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      log += chunk;
      if (onlineLine.test(log)) finish();
    });
    child.once('error', (cause) => {
      finish(new VirtuosoError('start_failed', `cannot run ${virtuosoBin}`, { cause }));
    });
    child.once('exit', (code, signal) => {
      finish(
        new VirtuosoError(
          'start_failed',
          `virtuoso-t exited during start-up (code ${code}, signal ${signal}); log tail:\n${tail(log)}`,
        ),
      );
    });
  });
}

function makeHandle(input: {
  child: ChildProcess;
  dir: string;
  removeDir: boolean;
  sqlPort: number;
  httpPort: number;
  isqlBin: string;
}): RunningVirtuoso {
  const { child, dir, removeDir, sqlPort, httpPort, isqlBin } = input;
  const pid = child.pid;
  if (pid === undefined) throw new VirtuosoError('start_failed', 'no process id');
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  let stopped = false;
  running.set(pid, { dir, removeDir });
  installExitHook();
  const watchdog = startWatchdog(pid, removeDir ? dir : undefined);

  const isql = (statements: string) => {
    if (stopped) {
      return Promise.reject(new VirtuosoError('stopped', 'this Virtuoso has been stopped'));
    }
    return runIsql({ isqlBin, sqlPort }, statements);
  };

  let loads: Promise<unknown> = Promise.resolve();
  const loadOne = async (source: string | URL, graphIri: string): Promise<void> => {
    validateGraphIri(graphIri);
    // The bulk loader remembers every file name it has loaded (also across restarts on a reused
    // folder) and skips a known one, so each load gets a name never used before.
    const stem = `load-${Date.now()}-${randomUUID()}`;
    let fileName: string;
    if (source instanceof URL || isFileReference(source)) {
      const path = source instanceof URL ? fileURLToPath(source) : resolvePath(source);
      const extension = extname(path).toLowerCase();
      if (!loadableExtensions.has(extension)) {
        throw new VirtuosoError(
          'invalid_input',
          `${path}: extension must be one of ${[...loadableExtensions].join(', ')}`,
        );
      }
      if (!existsSync(path)) {
        throw new VirtuosoError('invalid_input', `${path} does not exist`);
      }
      fileName = `${stem}${extension}`;
      // The bulk loader reads only from DirsAllowed.
      await copyFile(path, join(dir, fileName));
    } else {
      fileName = `${stem}.nt`;
      await writeFile(join(dir, fileName), source);
    }
    const filePath = join(dir, fileName);
    try {
      const output = await isql(
        [
          `ld_dir(${sqlString(dir)}, ${sqlString(fileName)}, ${sqlString(graphIri)})`,
          'rdf_loader_run()',
          'checkpoint',
          `select concat('DCG_LOAD_ERROR ', ll_error) from DB.DBA.load_list where ll_file = ${sqlString(filePath)} and ll_error is not null`,
          '',
        ].join(';\n'),
      );
      const failure = /DCG_LOAD_ERROR ([^\n]*)/.exec(output);
      if (failure) {
        throw new VirtuosoError(
          'load_failed',
          `loading into <${graphIri}> failed: ${failure[1]?.trim()}`,
        );
      }
    } finally {
      await unlink(filePath).catch(() => undefined);
    }
  };

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      stopped = true;
      // The watchdog goes first so it never signals a pid that has been reused after the exit.
      if (watchdog.pid !== undefined) {
        try {
          process.kill(watchdog.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const killTimer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(killTimer);
      }
      running.delete(pid);
      if (removeDir) await rm(dir, { recursive: true, force: true });
    })();
    return stopping;
  };

  return {
    sparqlUrl: `http://127.0.0.1:${httpPort}/sparql`,
    httpPort,
    sqlPort,
    dir,
    pid,
    load(source, graphIri) {
      if (stopped) {
        return Promise.reject(new VirtuosoError('stopped', 'this Virtuoso has been stopped'));
      }
      const next = loads.then(() => loadOne(source, graphIri));
      loads = next.catch(() => undefined);
      return next;
    },
    sql: (statements) => isql(statements),
    stop,
  };
}

function isFileReference(source: string): boolean {
  return !source.includes('<') && source.trim() !== '';
}

function validateGraphIri(graphIri: string): void {
  let valid = false;
  try {
    valid = new URL(graphIri).protocol !== '' && !invalidIriCharacters.test(graphIri);
  } catch {
    valid = false;
  }
  if (!valid) {
    throw new VirtuosoError(
      'invalid_input',
      `graph IRI ${JSON.stringify(graphIri)} must be an absolute IRI without spaces, quotes or <>"{}|^\`\\`,
    );
  }
}

function startWatchdog(pid: number, dirToRemove: string | undefined) {
  // A separate, detached shell outlives a SIGKILLed test runner and takes the server with it.
  // It ends quietly when the server exits by itself; only an orphaned server is killed.
  const cleanup = dirToRemove ? `; rm -rf '${dirToRemove}'` : '';
  const script = `while kill -0 ${process.pid} 2>/dev/null; do kill -0 ${pid} 2>/dev/null || exit 0; sleep 1; done; kill -KILL ${pid} 2>/dev/null${cleanup}`;
  const watchdog = spawn('sh', ['-c', script], { detached: true, stdio: 'ignore' });
  watchdog.on('error', () => undefined);
  watchdog.unref();
  return watchdog;
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const [pid, { dir, removeDir }] of running) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
      if (removeDir) rmSync(dir, { recursive: true, force: true });
    }
  });
}

async function removeDatabaseFiles(dir: string): Promise<void> {
  for (const name of [
    'virtuoso.db',
    'virtuoso.lck',
    'virtuoso.trx',
    'virtuoso.pxa',
    'virtuoso-temp.db',
    'virtuoso-temp.trx',
  ]) {
    await rm(join(dir, name), { force: true });
  }
}

function tail(text: string): string {
  return text.split('\n').slice(-15).join('\n');
}
