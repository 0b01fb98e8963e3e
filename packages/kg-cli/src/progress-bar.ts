/** Something that can show how far a long task is. */
export interface Progress {
  update(done: number): void;
  finish(): void;
}

const WIDTH = 30;

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * A progress bar on a terminal (redrawn in place, at most every 100 ms), or one line per 10 %
 * when the output is not a terminal (logs, CI).
 *
 * @example
 * const bar = progressBar('upload', file.size, process.stderr);
 * bar.update(512); bar.finish();
 */
export function progressBar(
  label: string,
  total: number,
  stream: { write(text: string): unknown; isTTY?: boolean },
): Progress {
  const started = Date.now();
  let lastDraw = 0;
  let lastDecile = -1;
  let current = 0;
  const draw = (final: boolean) => {
    const ratio = total > 0 ? Math.min(current / total, 1) : 1;
    const seconds = (Date.now() - started) / 1000;
    const rate = seconds > 0 ? current / seconds : 0;
    if (stream.isTTY) {
      const filled = Math.round(ratio * WIDTH);
      const bar = `${'█'.repeat(filled)}${'░'.repeat(WIDTH - filled)}`;
      stream.write(
        `\r${label.padEnd(8)} ${bar} ${(ratio * 100).toFixed(0).padStart(3)}% ${formatBytes(current)}/${formatBytes(total)} ${formatBytes(rate)}/s${final ? '\n' : ''}`,
      );
      return;
    }
    // Each tenth once: the last update often reaches 100 % before finish() is called.
    const decile = Math.floor(ratio * 10);
    if (decile !== lastDecile) {
      lastDecile = decile;
      stream.write(
        `${label} ${(ratio * 100).toFixed(0)}% (${formatBytes(current)}/${formatBytes(total)})\n`,
      );
    }
  };
  return {
    update(done: number) {
      current = done;
      const now = Date.now();
      if (now - lastDraw >= 100) {
        lastDraw = now;
        draw(false);
      }
    },
    finish() {
      current = total;
      draw(true);
    },
  };
}

/**
 * How long a task without progress of its own (kg-api processing an upload) has taken: the
 * elapsed seconds redrawn in place every second on a terminal, or a line when it starts, one
 * every 10 s and one at the end when the output is not a terminal.
 *
 * @example
 * const waiting = waitingIndicator('processing', process.stderr);
 * await answer; waiting.finish();
 */
export function waitingIndicator(
  label: string,
  stream: { write(text: string): unknown; isTTY?: boolean },
): { finish(): void } {
  const started = Date.now();
  const seconds = () => ((Date.now() - started) / 1000).toFixed(1);
  if (!stream.isTTY) stream.write(`${label}: waiting for kg-api\n`);
  let ticks = 0;
  const timer = setInterval(() => {
    ticks += 1;
    if (stream.isTTY) stream.write(`\r${label.padEnd(8)} ${seconds()} s`);
    else if (ticks % 10 === 0) stream.write(`${label}: ${seconds()} s\n`);
  }, 1000);
  timer.unref();
  let finished = false;
  return {
    finish() {
      if (finished) return;
      finished = true;
      clearInterval(timer);
      stream.write(`${stream.isTTY ? '\r' : ''}${label} done in ${seconds()} s\n`);
    },
  };
}
