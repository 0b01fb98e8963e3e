'use strict';

/**
 * A local embedder worker thread (see `src/node/local-embedder.ts`, which starts it): it loads the
 * Universal Sentence Encoder Lite from the module paths the main thread resolved (`workerData`),
 * then answers `{ texts }` messages with `{ vectors }` (one flat Float32Array, transferred) or
 * `{ error }`. Plain JavaScript outside `src` and `dist`: it needs no build, and the same file runs
 * under the TypeScript sources (tests, `tsx`) and under the built package.
 *
 * Why it does not call the package's `model.embed`:
 * - The model's graph derives three tensors with `Where` ops (which tokens fit in 128 positions,
 *   and where the real tokens are). `Where` makes TensorFlow.js run the graph with
 *   `executeAsync`, op by op through promises (measured, warm: a short query 17–18 ms, against
 *   12–14 ms with `execute`). The worker computes those three tensors from the token ids and
 *   feeds them, so `execute` runs the rest; the vectors are the same, bit for bit
 *   (local-embedder.test.ts).
 * - It reads only the first `maxTokens` tokens of a text: the model's cost grows with the tokens
 *   it reads (128 at most), and the first ones (name, kind, domain, description, tags) carry the
 *   meaning that search needs (README: measured recall and time per token budget).
 * - It tokenizes only a prefix of the text: the package's tokenizer costs the square of its
 *   input, and no vocabulary piece is longer than 16 characters, so `maxTokens * 16` characters
 *   always hold `maxTokens` tokens.
 */
const { parentPort, workerData } = require('node:worker_threads');
const { initModel } = require(workerData.embeddingsModule);
const { modelSource } = require(workerData.modelModule);
const tf = require(workerData.coreModule);
const DIMENSIONS = workerData.dimensions;
const MAX_TOKENS = workerData.maxTokens;
const MAX_CHARS = MAX_TOKENS * 16;
const NODE = 'module_apply_default/Encoder_en/KonaTransformer/';
const KEPT_TOKENS = `${NODE}ClipToMaxLength/Reshape`;
const TOKEN_CELLS = `${NODE}Encode/TransformerStack/Layer_1/TransformerLayer/FFN/StoreMask/ToInt32`;
const TOKEN_POSITIONS = `${NODE}Encode/TransformerStack/Layer_0/AddTimingSignal/strided_slice_2`;

function embed(model, texts) {
  const cells = [];
  const ids = [];
  const positions = [];
  texts.forEach((text, row) => {
    const tokens = model.tokenizer.encode(text.slice(0, MAX_CHARS)).slice(0, MAX_TOKENS);
    tokens.forEach((id, at) => {
      cells.push(row, at);
      ids.push(id);
      positions.push(at);
    });
  });
  const vectors = new Float32Array(texts.length * DIMENSIONS);
  // Nothing is returned from tidy: it walks what it returns, and walking the 512 numbers of a
  // vector made V8 deoptimise TensorFlow.js's engine on every call (10 ms of recompiling on
  // background threads per query, measured).
  tf.tidy(() => {
    const tokenCells = tf.tensor2d(cells, [ids.length, 2], 'int32');
    const out = model.model.execute({
      indices: tokenCells,
      values: tf.tensor1d(ids, 'int32'),
      [KEPT_TOKENS]: tf.range(0, ids.length, 1, 'int32'),
      [TOKEN_CELLS]: tokenCells,
      [TOKEN_POSITIONS]: tf.tensor1d(positions, 'int32'),
    });
    vectors.set(out.dataSync());
  });
  return vectors;
}

const loading = (async () => {
  const model = await initModel(modelSource);
  embed(model, ['warm up']); // the WASM backend starts on first use
  return model;
})();
loading.then(
  () => parentPort.postMessage({ ready: true }),
  (error) => parentPort.postMessage({ ready: false, error: String(error?.stack || error) }),
);
parentPort.on('message', async (message) => {
  try {
    const vectors = embed(await loading, message.texts);
    parentPort.postMessage({ vectors }, [vectors.buffer]);
  } catch (error) {
    parentPort.postMessage({ error: String(error?.message || error) });
  }
});
