// `@dcg/kg-client/graphs`: the sources and their graphs, for writers (see source-graphs.ts).
export type { GraphInfo, SourceSummary } from '@dcg/kg-schema';
export { GraphInfoSchema, SourceListSchema, SourceSummarySchema } from '@dcg/kg-schema';
export type { KgClientOptions } from './create-kg-client';
export {
  createSourceGraphsClient,
  type ReplaceGraphOptions,
  type SourceGraphs,
  type SourceGraphsClientOptions,
} from './source-graphs';
