/**
 * The code of a local embedder worker thread, run with `eval: true`: it loads the Universal
 * Sentence Encoder Lite from the module paths the main thread resolved (`workerData`), then
 * answers `{ id, texts }` messages with `{ id, vectors }` (one flat Float32Array, transferred) or
 * `{ id, error }`. Kept as source text rather than a file of its own so that it runs the same from
 * the TypeScript sources (tests, `tsx`) and from the bundled `dist` (whose file layout differs),
 * and plain CommonJS because an eval'd worker is a script.
 */
export const LOCAL_EMBEDDER_WORKER_SOURCE = `
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const { initModel } = require(workerData.embeddingsModule);
const { modelSource } = require(workerData.modelModule);
const DIMENSIONS = workerData.dimensions;
const loading = (async () => {
  const model = await initModel(modelSource);
  await model.embed(['warm up']); // the WASM backend starts on first use
  return model;
})();
loading.then(
  () => parentPort.postMessage({ ready: true }),
  (error) => parentPort.postMessage({ ready: false, error: String(error && error.stack || error) }),
);
parentPort.on('message', async (message) => {
  try {
    const model = await loading;
    const rows = await model.embed(message.texts);
    const vectors = new Float32Array(rows.length * DIMENSIONS);
    rows.forEach((row, i) => vectors.set(row, i * DIMENSIONS));
    parentPort.postMessage({ id: message.id, vectors }, [vectors.buffer]);
  } catch (error) {
    parentPort.postMessage({ id: message.id, error: String(error && error.message || error) });
  }
});
`;
