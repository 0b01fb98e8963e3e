// Throughput of A4 details validation with zod and with ajv on the generated draft-07 JSON
// Schema, measured in the same run. Goal: zod within 3x of ajv. "zod validateDetails" is what the
// package, its CLI and the apps run (zod's compiled fast path, see src/fast-validation.ts);
// "zod runtime" is a plain ResultDetailsSchema.safeParse on zod's interpreter, for reference.
// Run: pnpm --filter @dcg/contract-schema bench
import { createDraft07Validator } from '../src/__fixtures__/draft07-validator';
import { fastPathsCompiled } from '../src/fast-validation';
import { toDraft07JsonSchema } from '../src/json-schemas';
import { ResultDetailsSchema } from '../src/result-details';
import { validateDetails } from '../src/validation';
import { buildDetailsDocument, countRecords } from './details-document';

const ROUNDS = 5;
const ROUND_MS = 400;

function opsPerSecond(check: () => boolean): number {
  const deadline = performance.now() + ROUND_MS;
  let ops = 0;
  const start = performance.now();
  while (performance.now() < deadline) {
    for (let i = 0; i < 20; i++) {
      if (!check()) throw new Error('benchmark document must be valid');
    }
    ops += 20;
  }
  return ops / ((performance.now() - start) / 1000);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

const details = buildDetailsDocument();
const { records, depth } = countRecords(details);
const schema = toDraft07JsonSchema('result-details');
const ajvAll = createDraft07Validator().compile(schema);
if (!fastPathsCompiled().details)
  console.warn('warning: zod did not compile the details fast path');

const contenders: Record<string, () => boolean> = {
  'zod validateDetails': () => validateDetails(details).success,
  'zod runtime': () => ResultDetailsSchema.safeParse(details).success,
  'ajv (allErrors)': () => ajvAll(details),
};

// Warm up every contender so the JIT has settled before measuring.
for (const check of Object.values(contenders)) opsPerSecond(check);

// Interleave rounds so that machine noise hits every contender alike.
const samples = Object.fromEntries(Object.keys(contenders).map((name) => [name, [] as number[]]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, check] of Object.entries(contenders)) samples[name]?.push(opsPerSecond(check));
}

const zod = median(samples['zod validateDetails'] ?? []);
const zodRuntime = median(samples['zod runtime'] ?? []);
const ajv = median(samples['ajv (allErrors)'] ?? []);
console.log(
  `details document: ${records} records, ${depth} levels, ${JSON.stringify(details).length} bytes`,
);
for (const [name, values] of Object.entries(samples)) {
  const ops = median(values);
  const perDoc = (1e6 / ops).toFixed(1);
  const perRecord = Math.round(ops * records);
  console.log(
    `${name.padEnd(20)} ${Math.round(ops).toString().padStart(8)} docs/s ${perDoc.padStart(7)} µs/doc ${perRecord.toString().padStart(10)} records/s`,
  );
}
const ratio = ajv / zod;
console.log(`ratio ajv/zod runtime: ${(ajv / zodRuntime).toFixed(2)}x`);
console.log(
  `ratio ajv/zod validateDetails: ${ratio.toFixed(2)}x (goal: zod within 3x of ajv) → ${ratio <= 3 ? 'met' : 'NOT met'}`,
);
